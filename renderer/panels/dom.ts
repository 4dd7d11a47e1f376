/** A tiny element builder: text goes in as text nodes, never as HTML, so names and transcripts cannot inject markup. */
import { clockText, durationText } from '../../shared/usagePhrases';

type Child = Node | string | null | undefined | false;

/** Creates an element with attributes (`on*` functions become listeners) and children. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | ((event: Event) => void) | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2).toLowerCase(), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** Sets an attribute only when its value changed (keeps the mirror cheap to sync). */
export function setAttribute(node: Element, name: string, value: string): void {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** Sets a node's text only when it changed (no needless layout, no lost selection). */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** A local 24-hour clock time for an ISO instant ("14:05:09"), or the text itself when it does not parse. */
export function clockTime(iso: string): string {
  return clockText(iso);
}

/** The duration between two instants (`end` defaults to now) in the one style: "45 s", "3 min 12 s", "2 h 5 min". */
export function duration(startIso: string, endIso?: string, now = Date.now()): string {
  const start = Date.parse(startIso);
  const end = endIso ? Date.parse(endIso) : now;
  if (Number.isNaN(start) || Number.isNaN(end)) return '—';
  return durationText(Math.round((end - start) / 1000) * 1000);
}

/** The nodes of a list that are present (drops null, undefined and false), for `replaceChildren`. */
export function present(...nodes: Child[]): (Node | string)[] {
  return nodes.filter((node): node is Node | string => Boolean(node));
}
