/**
 * One agent: its pre-composited pixel character, name plate, subagent badge and context bar. Updated only on change.
 * The plate, the badge and the bar are drawn at a whole text scale whatever the zoom, inside the room the work place
 * keeps for them (the bar never larger than its box, so it stays clear of the row below at small zooms).
 */
import { Container, Graphics, Rectangle, Sprite, Texture, type DestroyOptions } from 'pixi.js';
import type { Harness } from '../../shared/schemas';
import { BadgeView } from './BadgeView';
import { BubbleView } from './BubbleView';
import { DriftMark } from './DriftMark';
import { PaceMark } from './PaceMark';
import { NAMES_MIN_ZOOM, textScale } from './camera';
import { BAR_WIDTH, sameGauge, UNKNOWN_GAUGE, type ContextGauge } from './contextBar';
import { contextBarPicture } from './contextBarPicture';
import { GREYED_EDGE, GREYED_TEXT, hostTagPicture, LABEL_HEIGHT, platePicture } from './labelPictures';
import { LabelSprite } from './LabelSprite';
import { LABEL_BOXES, NAME_PLATE_WIDTH, type Point } from './layout';
import type { WornLook } from './lookAtlas';
import { lookKey, type LookFrame } from './looks';
import type { AgentModel } from './model';
import { shortenToWidth } from './pixelFont';
import { BUBBLE_OFFSET } from './BubbleView';
import { wholePixel } from './snap';
import type { Sprites } from './sprites';

const FOCUS = 0xffe58a;
const PLATE = 0x2a1f2a;
const TEAM_LEAD = 0xf2c94c;
const TEAM_MEMBER = 0xd9dde8;
/** Each harness's colour (the plate's edge, the legend, the desk's mark; the sprite art uses the same colours). */
export const HARNESS_COLOURS: Record<Harness, number> = { claude: 0xe2773d, codex: 0x4a9be8, opencode: 0x5bc46a };
/** The tint of a character whose seat cannot be read: greyed, so "unknown" never looks like idle or working. */
const UNKNOWN_TINT = 0x9aa0b0;

/** Rows the idle character's resting frame loses at its feet: it sits down, its head lower (the resting pose). */
const REST_DROP = 4;

/** The animation a character is in: standing, resting (idle: seated, eyes closed), typing at its desk, or walking. */
export type Pose = 'stand' | 'rest' | 'work' | 'walk';

/** The character's box around its feet: every pose's frame lies inside it (a seated frame change redraws only it). */
const BODY_BOX = { x: -8, y: -26, width: 16, height: 26 } as const;

/** Typing frames in the loop (at the sprite cadence of at most 10 fps). */
export const WORK_FRAMES = 4;

/** A character on the floor; its position is its feet. */
export class AgentView extends Container {
  record: AgentModel | null = null;
  /** Where the layout wants the agent; the view walks (or fades) there. */
  target: Point | null = null;
  placed = false;
  fading: 'out' | 'in' | null = null;
  dragging = false;
  /** Its phase group: which half of a sprite frame its loop turns on (see phase.ts). */
  phase = 0;
  /** The whole character (skin, shirt, hair, accessory) as one quad from the look atlas. */
  private readonly body = new Sprite();
  private readonly shadow: Sprite;
  private look: WornLook | null = null;
  /** The resting pose of the worn look: its standing frame with the legs folded away, made when first needed. */
  private rest: Texture | null = null;
  /** The name plate (plate and name): one picture from the label atlas. */
  readonly namePlate = new Container();
  private readonly plate: LabelSprite;
  /** A remote agent's host, in its own tag beside the plate (hidden for this machine's agents). */
  readonly hostTag: LabelSprite;
  /** The text the plate and the host tag show now (for the page hook). */
  plateText = '';
  hostText = '';
  private readonly ring = new Graphics();
  readonly badge: BadgeView;
  /** The team badge: a small pennant on the shoulder of an agent in a Claude Code agent team (gold for its lead). */
  readonly teamMark = new Graphics();
  /** The needs-you (or idle) speech bubble. */
  readonly bubble: BubbleView;
  /** The context bar under the name plate: one picture from the label atlas. */
  readonly contextBar = new Container();
  private readonly bar: LabelSprite;
  /** The bar shown now (for the page hook). */
  shownGauge: ContextGauge = UNKNOWN_GAUGE;
  /** The drift mark: unknown record kinds from an untested harness version (issue 29). */
  readonly driftMark = new DriftMark();
  /** The near-auto-compact mark (issue 41). */
  readonly paceMark = new PaceMark();
  private pose: Pose = 'stand';
  private frame = 0;
  private zoom = 1;
  private hovered = false;
  /** World pixels a name plate may take (the work place's pitch less a gap). */
  private nameRoom = NAME_PLATE_WIDTH;

  constructor(private readonly sprites: Sprites) {
    super();
    this.shadow = new Sprite(sprites.frame('shadow'));
    this.shadow.position.set(-7, -3);
    this.body.position.set(BODY_BOX.x, BODY_BOX.y);
    this.plate = new LabelSprite(sprites.labels);
    this.badge = new BadgeView(sprites.labels);
    this.bubble = new BubbleView(sprites.labels);
    this.badge.position.set(LABEL_BOXES.badge.x, LABEL_BOXES.badge.y);
    this.namePlate.position.set(0, LABEL_BOXES.name.y);
    // The keyboard focus: a bright ring on the floor around the feet (the plate's outline follows).
    this.ring.ellipse(0, -1, 12, 5).stroke({ color: FOCUS, width: 2 });
    this.ring.visible = false;
    this.hostTag = new LabelSprite(sprites.labels);
    this.namePlate.addChild(this.plate, this.hostTag);
    this.bar = new LabelSprite(sprites.labels);
    this.bar.position.set(-BAR_WIDTH / 2, 0);
    this.contextBar.addChild(this.bar);
    this.placeBar();
    this.teamMark.visible = false;
    this.addChild(this.ring, this.shadow, this.body, this.teamMark, this.driftMark, this.paceMark, this.namePlate, this.contextBar, this.badge, this.bubble);
  }

  /** Applies a changed record; unchanged parts are not touched. */
  update(record: AgentModel): void {
    const before = this.record;
    this.record = record;
    if (!this.look || lookKey(record.appearance) !== this.look.key) this.dress(record);
    if (!before || before.name !== record.name || before.harness !== record.harness || before.host !== record.host || before.unreachable !== record.unreachable) this.drawNamePlate(record);
    this.badge.update(record.subagents);
    if (!before || !sameGauge(before.context, record.context)) {
      this.shownGauge = record.context;
      this.bar.show(contextBarPicture(record.context));
    }
    if (!before || before.team !== record.team || before.teamLead !== record.teamLead) this.drawTeamMark(record);
    this.bubble.update(record.activity);
    this.driftMark.update(record.drift ?? null);
    this.paceMark.update(record.nearCompact ?? null);
    const unknown = record.activity.state === 'unknown';
    this.body.tint = unknown ? UNKNOWN_TINT : 0xffffff;
    this.body.alpha = record.unreachable ? 0.45 : unknown ? 0.85 : 1;
    this.showFrame();
  }

  /** A pennant on a pole beside the character: shown only for a team's lead or member. */
  private drawTeamMark(record: AgentModel): void {
    this.teamMark.clear();
    this.teamMark.visible = record.team !== null;
    if (record.team === null) return;
    const flag = record.teamLead ? TEAM_LEAD : TEAM_MEMBER;
    this.teamMark.rect(9, -24, 1, 12).fill(PLATE);
    this.teamMark.poly([10, -24, 16, -21.5, 10, -19]).fill(flag).stroke({ width: 1, color: PLATE });
  }

  /** Shows or hides the focus ring (a focused agent shows its whole name). */
  setFocused(focused: boolean): void {
    if (this.ring.visible === focused) return;
    this.ring.visible = focused;
    if (this.record) this.drawNamePlate(this.record);
  }

  /** Marks the agent under the pointer: it shows its whole name, above its neighbours. */
  setHovered(hovered: boolean): void {
    if (this.hovered === hovered) return;
    this.hovered = hovered;
    if (this.record) this.drawNamePlate(this.record);
  }

  /** Scales the plate and the badge to a whole text scale at this zoom; names hide below the legibility threshold. */
  setZoom(zoom: number): void {
    if (zoom === this.zoom) return;
    this.zoom = zoom;
    const scale = textScale(zoom) / zoom;
    this.namePlate.scale.set(scale);
    this.badge.scale.set(scale);
    this.bubble.scale.set(scale);
    this.snapLabels();
    if (this.record) this.drawNamePlate(this.record);
  }

  /**
   * Puts the plate, the badge, the bubble and the bar on whole screen pixels for this zoom and the agent's (whole)
   * position: at a half or quarter zoom a label at a whole world pixel can start between two screen pixels, and the
   * pixel font then loses strokes. The scene calls it whenever the agent moves; the camera's offset is whole.
   */
  snapLabels(): void {
    const { x, y } = this.position;
    const zoom = this.zoom;
    const at = (base: number, origin: number) => wholePixel(origin + base, zoom) - origin;
    this.namePlate.position.set(at(0, x), at(LABEL_BOXES.name.y, y));
    this.badge.position.set(at(LABEL_BOXES.badge.x, x), at(LABEL_BOXES.badge.y, y));
    this.bubble.position.set(at(BUBBLE_OFFSET.x, x), at(BUBBLE_OFFSET.y, y));
    this.placeBar();
  }

  /** Puts the bar one text pixel under the plate, at the text scale but never larger than its box in world pixels. */
  private placeBar(): void {
    const scale = Math.min(1, textScale(this.zoom) / this.zoom);
    this.contextBar.scale.set(scale);
    this.contextBar.position.set(this.namePlate.position.x, this.namePlate.position.y + (LABEL_HEIGHT + 1) * scale);
  }

  /** Sets the world pixels the name plate may take (its work place's pitch less a gap). */
  setNameRoom(room: number): void {
    if (room === this.nameRoom) return;
    this.nameRoom = room;
    if (this.record) this.drawNamePlate(this.record);
  }

  /** Sets the pose and the sprite frame counter (each pose loops through its own frames at the sprite cadence). */
  animate(pose: Pose, frame: number): boolean {
    if (pose === this.pose && frame === this.frame) return false;
    this.pose = pose;
    this.frame = frame;
    this.showFrame();
    return true;
  }

  /** The box every frame of the character lies in, relative to its feet. */
  get bodyBox(): typeof BODY_BOX {
    return BODY_BOX;
  }

  /** The pose on screen (an idle character at rest sits, head lower, eyes closed). */
  get shownPose(): Pose {
    return this.pose;
  }

  /** The pose the record asks for at the desk: typing while working, resting while idle, else standing. */
  restingPose(reducedMotion: boolean): Pose {
    const state = this.record?.activity.state;
    if (state === 'working') return reducedMotion ? 'stand' : 'work';
    return state === 'idle' ? 'rest' : 'stand';
  }

  /** The pose shown now (for the page hook). */
  get currentPose(): Pose {
    return this.pose;
  }

  /** The sprite frame shown now (for the page hook). */
  shownFrame: LookFrame = 'stand';

  private showFrame(): void {
    if (!this.look) return;
    this.shownFrame = frameOf(this.pose, this.frame);
    const resting = this.pose === 'rest';
    this.body.texture = resting ? this.restTexture(this.look) : this.look.frames[this.shownFrame];
    this.body.y = resting ? BODY_BOX.y + REST_DROP : BODY_BOX.y;
  }

  private restTexture(look: WornLook): Texture {
    if (this.rest) return this.rest;
    const resting = look.frames.rest;
    const { x, y, width, height } = resting.frame;
    this.rest = new Texture({ source: resting.source, frame: new Rectangle(x, y, width, height - REST_DROP) });
    return this.rest;
  }

  /** Wears the record's look; the old one goes back to the atlas cache. */
  private dress(record: AgentModel): void {
    const worn = this.sprites.looks.acquire(record.appearance);
    if (this.look) this.sprites.looks.release(this.look);
    this.rest?.destroy(false);
    this.rest = null;
    this.look = worn;
  }

  /** Gives the look and the labels back to their atlases along with the Pixi objects. */
  override destroy(options?: DestroyOptions): void {
    if (this.look) this.sprites.looks.release(this.look);
    this.look = null;
    this.rest?.destroy(false);
    this.rest = null;
    super.destroy(options);
  }

  /** True while the whole name is asked for (hover or focus). */
  get spotlit(): boolean {
    return this.hovered || this.ring.visible;
  }

  private showPlate(): void {
    this.namePlate.visible = this.zoom >= NAMES_MIN_ZOOM || this.spotlit;
  }

  private drawNamePlate(record: AgentModel): void {
    const spotlit = this.spotlit;
    const room = Math.floor((this.nameRoom * this.zoom) / textScale(this.zoom));
    const greyed = record.unreachable === true;
    const edge = greyed ? GREYED_EDGE : record.harness ? HARNESS_COLOURS[record.harness] : PLATE;
    // Pixel-rounded plate with an edge in the harness's colour; bright while the agent has the keyboard focus; grey
    // while its host cannot be reached. The name has the whole room: a remote agent's host goes in its own tag beside
    // the plate, shortened (or left to the hover card) when the room is short, never at the name's cost.
    const name = spotlit ? record.name : shortenToWidth(record.name, Math.max(8, room - 6));
    this.plate.show(platePicture(name, this.ring.visible ? FOCUS : edge, greyed ? GREYED_TEXT : undefined));
    const host = record.host ?? '';
    const tagRoom = spotlit ? Infinity : room - this.plate.pictureWidth - 1 - 4;
    const tagText = host === '' ? '' : shortenToWidth(host, tagRoom);
    this.plateText = name;
    this.hostText = tagText === '…' ? '' : tagText;
    if (tagText === '' || tagText === '…') this.hostTag.clear();
    else this.hostTag.show(hostTagPicture(tagText, greyed));
    const total = this.plate.pictureWidth + (this.hostTag.pictureWidth > 0 ? this.hostTag.pictureWidth + 1 : 0);
    this.plate.position.set(Math.round(-total / 2), 0);
    this.hostTag.position.set(this.plate.position.x + this.plate.pictureWidth + 1, 0);
    this.zIndex = spotlit ? 1_000_000 : Math.round(this.position.y);
    this.showPlate();
  }
}

/** The sprite frame of a pose at a frame counter: four typing frames, two walking frames, one still frame. */
export function frameOf(pose: Pose, counter: number): LookFrame {
  switch (pose) {
    case 'work':
      return `work${counter % WORK_FRAMES}` as LookFrame;
    case 'walk':
      return counter % 2 === 0 ? 'walk0' : 'walk1';
    case 'rest':
      return 'rest';
    case 'stand':
      return 'stand';
    default:
      return pose satisfies never;
  }
}
