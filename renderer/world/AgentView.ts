/** One agent: its pre-composited pixel character, harness mark, name plate and subagent badge. Updated only on change. */
import { Container, Graphics, Sprite, type DestroyOptions } from 'pixi.js';
import { BadgeView } from './BadgeView';
import type { WornLook } from './lookAtlas';
import { lookKey, type LookFrame } from './looks';
import type { AgentModel } from './model';
import { PixelText, shortenToWidth } from './PixelText';
import type { Sprites } from './sprites';
import { NAME_WIDTH, type Point } from './layout';

/** Height of the name plate: the 7 px font with 2 px above and below. */
const PLATE_HEIGHT = 11;
const PLATE_TOP = 2;
const FOCUS = 0xffe58a;

/** The animation a character is in. */
export type Pose = 'stand' | 'work' | 'walk';

/** A character on the floor; its position is its feet. */
export class AgentView extends Container {
  record: AgentModel | null = null;
  /** Where the layout wants the agent; the view walks (or fades) there. */
  target: Point | null = null;
  placed = false;
  fading: 'out' | 'in' | null = null;
  dragging = false;
  /** The whole character (skin, shirt, hair, accessory) as one quad from the look atlas. */
  private readonly body = new Sprite();
  private readonly shadow: Sprite;
  private look: WornLook | null = null;
  private readonly mark = new Sprite();
  /** The name plate (plate, harness mark, name) as one cached texture: one quad a frame instead of a dozen. */
  private readonly namePlate = new Container();
  private readonly plate = new Graphics();
  private readonly name_: PixelText;
  private readonly ring = new Graphics();
  readonly badge: BadgeView;
  private pose: Pose = 'stand';
  private frame = 0;

  constructor(private readonly sprites: Sprites) {
    super();
    this.shadow = new Sprite(sprites.frame('shadow'));
    this.shadow.position.set(-7, -3);
    this.body.position.set(-8, -26);
    this.name_ = new PixelText(sprites);
    this.badge = new BadgeView(sprites);
    // The keyboard focus: a bright ring on the floor around the feet (the plate's outline follows).
    this.ring.ellipse(0, -1, 12, 5).stroke({ color: FOCUS, width: 2 });
    this.ring.visible = false;
    this.namePlate.addChild(this.plate, this.mark, this.name_);
    this.addChild(this.ring, this.shadow, this.body, this.namePlate, this.badge);
  }

  /** Applies a changed record; unchanged parts are not touched. */
  update(record: AgentModel): void {
    const before = this.record;
    this.record = record;
    if (!this.look || lookKey(record.appearance) !== this.look.key) this.dress(record);
    if (!before || before.name !== record.name || before.harness !== record.harness) this.drawNamePlate(record);
    this.badge.update(record.subagents);
    this.body.alpha = record.activity === 'unknown' ? 0.75 : 1;
    this.showFrame();
  }

  /** Shows or hides the focus ring. */
  setFocused(focused: boolean): void {
    if (this.ring.visible === focused) return;
    this.ring.visible = focused;
    if (this.record) this.drawNamePlate(this.record);
  }

  /** Sets the pose and sprite frame (0/1 alternate at the sprite cadence). */
  animate(pose: Pose, frame: number): boolean {
    if (pose === this.pose && frame === this.frame) return false;
    this.pose = pose;
    this.frame = frame;
    this.showFrame();
    return true;
  }

  /** The pose the record asks for when standing still. */
  restingPose(reducedMotion: boolean): Pose {
    return this.record?.activity === 'working' && !reducedMotion ? 'work' : 'stand';
  }

  private showFrame(): void {
    if (!this.look) return;
    const pose = this.pose;
    const frame: LookFrame = pose === 'stand' ? 'stand' : this.frame % 2 === 0 ? `${pose}0` : `${pose}1`;
    this.body.texture = this.look.frames[frame];
  }

  /** Wears the record's look; the old one goes back to the atlas cache. */
  private dress(record: AgentModel): void {
    const worn = this.sprites.looks.acquire(record.appearance);
    if (this.look) this.sprites.looks.release(this.look);
    this.look = worn;
  }

  /** Gives the look back to the atlas along with the Pixi objects. */
  override destroy(options?: DestroyOptions): void {
    if (this.look) this.sprites.looks.release(this.look);
    this.look = null;
    super.destroy(options);
  }

  private drawNamePlate(record: AgentModel): void {
    this.name_.setText(shortenToWidth(record.name, NAME_WIDTH), 0xfff6dc);
    const width = this.name_.textWidth;
    const markWidth = record.harness ? 7 : 0;
    const total = width + markWidth + 6;
    const left = Math.round(-total / 2);
    const focused = this.ring.visible;
    this.plate.clear();
    // Pixel-rounded plate: corners cut by one pixel; a bright outline while the agent has the keyboard focus.
    this.plate.rect(left + 1, PLATE_TOP, total - 2, PLATE_HEIGHT).fill(focused ? FOCUS : 0x2a1f2a);
    this.plate.rect(left, PLATE_TOP + 1, total, PLATE_HEIGHT - 2).fill(focused ? FOCUS : 0x2a1f2a);
    if (focused) this.plate.rect(left + 1, PLATE_TOP + 1, total - 2, PLATE_HEIGHT - 2).fill(0x2a1f2a);
    this.mark.visible = record.harness !== null;
    if (record.harness) {
      this.mark.texture = this.sprites.frame(`mark_${record.harness}`);
      this.mark.position.set(left + 3, PLATE_TOP + 3);
    }
    this.name_.position.set(left + 3 + markWidth, PLATE_TOP + 2);
    if (this.namePlate.isCachedAsTexture) this.namePlate.updateCacheTexture();
    else this.namePlate.cacheAsTexture({ scaleMode: 'nearest', resolution: 1, antialias: false });
  }
}
