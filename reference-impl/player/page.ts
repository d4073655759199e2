import { createHash } from 'node:crypto';
import type { LearnerBehaviour } from '../learner/behaviour.js';
import type { Course } from '../learner/seed.js';
import { PLAYER_SCRIPT } from './script.js';

/**
 * The course player page: static markup, the default theme, the configuration as a JSON data
 * block and the script (script.ts). Nothing is loaded from anywhere but this server: the
 * Content-Security-Policy allows the page's own style and script (by hash), images and fetches of
 * its own origin only.
 */

/** The default theme (no department branding). */
export const DEFAULT_THEME = Object.freeze({ primaryColor: '#24292f', backgroundColor: '#ffffff' });

const STYLE = `
:root { --lpc-primary: ${DEFAULT_THEME.primaryColor}; --lpc-background: ${DEFAULT_THEME.backgroundColor}; --lpc-on-primary: #ffffff; --lpc-text: #1f2328; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; color: var(--lpc-text); }
[hidden] { display: none !important; }
[data-player] { min-height: 100vh; padding-bottom: 24px; background-color: var(--lpc-background); }
[data-player-header] { display: flex; align-items: center; gap: 16px; padding: 12px 24px; background-color: var(--lpc-primary); color: var(--lpc-on-primary); }
[data-player-header] h1 { margin: 0; font-size: 1.25rem; }
[data-logo] { height: 40px; }
[data-tags] { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; margin: 16px 24px 0; padding: 0; }
[data-tag] { padding: 2px 10px; border: 1px solid var(--lpc-primary); border-radius: 999px; font-size: 0.85rem; }
[data-lessons] { margin: 16px 24px; padding-left: 24px; }
[data-lesson-id] { display: flex; align-items: center; gap: 12px; padding: 6px 0; }
[data-lesson-id][data-playing] { font-weight: 600; }
[data-play] { padding: 4px 12px; border: 0; border-radius: 4px; background-color: var(--lpc-primary); color: var(--lpc-on-primary); cursor: pointer; }
[role="alertdialog"] { position: fixed; right: 24px; bottom: 24px; max-width: 360px; padding: 16px 20px; border: 2px solid #b42318; border-radius: 8px; background: #ffffff; color: #1f2328; box-shadow: 0 4px 16px rgba(0, 0, 0, 0.25); }
[role="alertdialog"] h2 { margin: 0 0 8px; font-size: 1.1rem; color: #b42318; }
`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page's Content-Security-Policy: its own style and script, images and fetches of its origin. */
export const PLAYER_CSP = [
  "default-src 'none'",
  `script-src ${sha256(PLAYER_SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface PlayerConfig {
  readonly courseId: string;
  readonly apiBase: string;
  readonly apiKey: string;
  readonly token: string;
  readonly tagsVisible: boolean;
  readonly saveIntervalMs: number;
  readonly progressStep: number;
  readonly branding: LearnerBehaviour['player']['branding'];
  readonly saveError: LearnerBehaviour['player']['saveError'];
  readonly errorTitle: string;
  readonly afterError: LearnerBehaviour['player']['afterError'];
}

export function playerPage(course: Course, config: PlayerConfig): string {
  // A JSON data block is not executed; `<` escaped so that no value can close the element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const name = escapeHtml(course.name);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${name} · Course player</title>
<style>${STYLE}</style>
</head>
<body>
<main data-player data-state="loading" data-course-id="${escapeHtml(course.id)}">
<header data-player-header><h1 data-course-name>${name}</h1></header>
<ul data-tags aria-label="Tags"></ul>
<ol data-lessons aria-label="Lessons"></ol>
<p data-player-status>Loading…</p>
</main>
<script type="application/json" id="lpc-player-config">${json}</script>
<script>${PLAYER_SCRIPT}</script>
</body>
</html>
`;
}
