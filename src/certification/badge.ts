/**
 * The certification badge (SPEC §6 `GET /api/certification?action=badge`): a fixed-size SVG with
 * grade, score, status, issue date and project name. Self-contained — no external fonts, images
 * or scripts, so it renders the same wherever it is embedded and carries nothing executable —
 * and deterministic: the same input gives the same bytes, so it can be cached and hashed.
 */
import type { IsoDate } from '../projects/facts.js';
import type { Grade } from '../governance/constants.js';
import type { BadgeStatus } from './certify.js';

export const BADGE_WIDTH = 320;
export const BADGE_HEIGHT = 96;
/** Where the project name starts, and the widest it may be drawn (to 12 px short of the border). */
const NAME_X = 102;
export const BADGE_NAME_MAX_WIDTH = BADGE_WIDTH - NAME_X - 12;
const NAME_FONT_SIZE = 13;

const GRADE_COLORS: Readonly<Record<Grade, string>> = {
  A: '#2e7d32',
  B: '#558b2f',
  C: '#f9a825',
  D: '#ef6c00',
  F: '#c62828',
};
/** A badge that no longer vouches for anything is grey, whatever its grade. */
const INACTIVE_COLOR = '#757575';
const FONT = 'DejaVu Sans,Verdana,Geneva,sans-serif';

export interface BadgeContent {
  grade: Grade;
  score: number;
  status: BadgeStatus;
  issued_on: IsoDate;
  /** null: the lender did not choose to show it; the badge then says "Certified project". */
  project_name: string | null;
}

export function renderBadge(content: BadgeContent): string {
  const accent = content.status === 'VALID' ? GRADE_COLORS[content.grade] : INACTIVE_COLOR;
  const projectName =
    content.project_name === null ? 'Certified project' : withoutControls(content.project_name);
  const name = escapeXml(fitted(projectName, BADGE_NAME_MAX_WIDTH / NAME_FONT_SIZE));
  const label = escapeXml(
    `Plumbline certification: ${projectName}, grade ${content.grade}, score ${content.score}, ${content.status}, issued ${content.issued_on}`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}" viewBox="0 0 ${BADGE_WIDTH} ${BADGE_HEIGHT}" role="img" aria-label="${label}">`,
    `<title>${label}</title>`,
    `<rect width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}" rx="6" fill="#ffffff" stroke="${accent}" stroke-width="2"/>`,
    `<rect x="1" y="1" width="88" height="94" rx="5" fill="${accent}"/>`,
    `<text x="45" y="58" font-family="${FONT}" font-size="44" font-weight="bold" fill="#ffffff" text-anchor="middle">${content.grade}</text>`,
    `<text x="45" y="82" font-family="${FONT}" font-size="12" fill="#ffffff" text-anchor="middle">${content.score}/100</text>`,
    `<text x="102" y="24" font-family="${FONT}" font-size="11" fill="#555555">PLUMBLINE CERTIFIED</text>`,
    `<text x="${NAME_X}" y="46" font-family="${FONT}" font-size="${NAME_FONT_SIZE}" font-weight="bold" fill="#222222">${name}</text>`,
    `<text x="102" y="68" font-family="${FONT}" font-size="12" font-weight="bold" fill="${accent}">${content.status}</text>`,
    `<text x="102" y="86" font-family="${FONT}" font-size="11" fill="#555555">issued ${escapeXml(content.issued_on)}</text>`,
    '</svg>',
  ].join('\n');
}

/** Escapes the five XML special characters (text and attribute safe). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}
const XML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Drops the C0 control characters XML 1.0 forbids (a name with one would make the SVG
 * unparseable), U+FFFE and U+FFFF (not XML characters either), and the bidirectional embedding,
 * override and isolate controls: a U+202E in the name showed it reversed, and in the label turned
 * the grade, score and status after it around.
 */
function withoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching the forbidden controls is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g, '');
}

/**
 * A generous advance width, in em, of a character in the badge's bold sans-serif (DejaVu Sans Bold
 * measured, rounded up): the name is cut by these so that it stays inside the badge whatever font
 * the viewer substitutes. Anything outside ASCII counts as wide (CJK ideographs are 1 em).
 */
function advance(ch: string): number {
  if (/[ijlfrtIJ.,:;'!|/\\()[\]` "-]/.test(ch)) return 0.5;
  if (/[mwMW@%]/.test(ch)) return 1.12;
  if (/[a-z0-9]/.test(ch)) return 0.73;
  if (/[A-Z]/.test(ch)) return 0.86;
  return ch.charCodeAt(0) < 0x80 ? 0.9 : 1.25;
}

/**
 * The name as it fits in `maxEm` em: whole when it does, else cut by code point (never inside a
 * surrogate pair) and ended with an ellipsis. Cutting at a fixed 36 characters let an ordinary
 * name such as 'Riverside Commons Apartments Phase II' run past the badge's border.
 */
function fitted(text: string, maxEm: number): string {
  const chars = [...text];
  const width = (cs: string[]) => cs.reduce((sum, ch) => sum + advance(ch), 0);
  if (width(chars) <= maxEm) return text;
  const room = maxEm - advance('…');
  let kept = 0;
  let used = 0;
  while (kept < chars.length && used + advance(chars[kept]!) <= room) used += advance(chars[kept++]!);
  return `${chars.slice(0, kept).join('').trimEnd()}…`;
}
