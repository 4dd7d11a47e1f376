/** One agent: a layered pixel character, its harness mark, name plate and subagent badge. Updated only on change. */
import { Container, Graphics, Sprite } from 'pixi.js';
import { BadgeView } from './BadgeView';
import type { AgentModel } from './model';
import { PixelText, shorten } from './PixelText';
import type { Sprites } from './sprites';
import type { Point } from './layout';

/** Shirt colours by palette index. */
const SHIRTS = [0xe05a5a, 0x4a90d9, 0x5bbf6a, 0xe0b03a, 0x9a6ad9, 0x3ab8b0, 0xe07ab0, 0x8f98a8];
/** Hair colours; a persona's is picked from its hair style and palette. */
const HAIRS = [0x3a2a1a, 0xd9b050, 0xa04a20, 0x202020, 0xe0e0e0, 0x7a4a2a, 0xc05080, 0x4060c0];
/** Longest name shown under a character; the slot width is sized for it. */
const NAME_LIMIT = 10;

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
  private readonly body = new Container();
  private readonly shadow: Sprite;
  private readonly skin = new Sprite();
  private readonly clothes = new Sprite();
  private readonly hair = new Sprite();
  private readonly accessory = new Sprite();
  private readonly mark = new Sprite();
  private readonly plate = new Graphics();
  private readonly name_: PixelText;
  private readonly ring = new Graphics();
  readonly badge: BadgeView;
  private pose: Pose = 'stand';
  private frame = 0;

  constructor(private readonly sprites: Sprites) {
    super();
    this.shadow = new Sprite(sprites.frame('shadow'));
    this.shadow.position.set(-6, -2);
    this.body.position.set(-8, -26);
    this.body.addChild(this.skin, this.clothes, this.hair, this.accessory);
    this.name_ = new PixelText(sprites);
    this.badge = new BadgeView(sprites);
    this.ring.ellipse(0, 0, 9, 3).stroke({ color: 0xffe58a, width: 1 });
    this.ring.visible = false;
    this.addChild(this.ring, this.shadow, this.body, this.plate, this.name_, this.mark, this.badge);
  }

  /** Applies a changed record; unchanged parts are not touched. */
  update(record: AgentModel): void {
    const before = this.record;
    this.record = record;
    if (!before || before.appearance !== record.appearance) this.dress(record);
    if (!before || before.name !== record.name || before.harness !== record.harness) this.drawNamePlate(record);
    this.badge.update(record.subagents);
    this.badge.position.set(4, -36);
    this.body.alpha = record.activity === 'unknown' ? 0.75 : 1;
    this.showFrame();
  }

  /** Shows or hides the focus ring. */
  setFocused(focused: boolean): void {
    this.ring.visible = focused;
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
    const record = this.record;
    if (!record) return;
    const name = this.pose === 'stand' ? 'stand' : `${this.pose}${this.frame % 2}`;
    this.skin.texture = this.sprites.frame(`skin_${record.appearance.body}_${name}`);
    this.clothes.texture = this.sprites.frame(`clothes_${record.appearance.body}_${name}`);
  }

  private dress(record: AgentModel): void {
    const { body, hair, palette, accessory } = record.appearance;
    const headOffset = this.sprites.headOffset[body] ?? 0;
    this.clothes.tint = SHIRTS[palette] ?? SHIRTS[0];
    this.hair.texture = this.sprites.frame(`hair_${hair}`);
    this.hair.tint = HAIRS[(hair * 3 + palette) % HAIRS.length];
    this.hair.y = headOffset;
    this.accessory.visible = accessory > 0;
    if (accessory > 0) this.accessory.texture = this.sprites.frame(`accessory_${accessory}`);
    this.accessory.y = headOffset;
  }

  private drawNamePlate(record: AgentModel): void {
    this.name_.setText(shorten(record.name, NAME_LIMIT), 0xfff6dc);
    const width = this.name_.textWidth;
    const markWidth = record.harness ? 6 : 0;
    const total = width + markWidth;
    const left = Math.round(-total / 2);
    this.plate.clear();
    this.plate.rect(left - 2, 2, total + 4, 9).fill({ color: 0x2a1f2a, alpha: 0.8 });
    this.mark.visible = record.harness !== null;
    if (record.harness) {
      this.mark.texture = this.sprites.frame(`mark_${record.harness}`);
      this.mark.position.set(left, 4);
    }
    this.name_.position.set(left + markWidth, 4);
  }
}
