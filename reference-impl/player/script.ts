/**
 * The course player's script (no framework; it runs in the page as it is, so it is plain
 * JavaScript in a string, parsed by the tests). It reads its configuration from the page's
 * `#lpc-player-config` JSON block, fetches the course (lessons, tags) and the learner's branding
 * from the learner API with the token, renders them, applies the branding as the theme (CSS custom
 * properties on :root), and while a lesson plays saves its progress every `saveIntervalMs`. A
 * failed save (401 when the token is no longer valid) stops the saving and shows the dialog titled
 * `errorTitle` (`Player Error`). The configuration's `branding`, `saveError` and `afterError` carry
 * the server's behaviour table (faults), so that one script serves every behaviour.
 * Selectors: docs/decisions/learner/reference-server-and-player.md "Learner reference server and player: choices".
 */
export const PLAYER_SCRIPT = `
(() => {
  'use strict';
  const config = JSON.parse(document.getElementById('lpc-player-config').textContent);
  const root = document.querySelector('[data-player]');
  const header = root.querySelector('[data-player-header]');
  const tagList = root.querySelector('[data-tags]');
  const lessonList = root.querySelector('[data-lessons]');
  const statusLine = root.querySelector('[data-player-status]');
  let playing = null;

  const request = (method, path, body) =>
    fetch(config.apiBase + path, {
      method,
      cache: 'no-store',
      headers: Object.assign(
        { accept: 'application/json', 'x-api-key': config.apiKey, authorization: 'Bearer ' + config.token },
        body === undefined ? {} : { 'content-type': 'application/json' },
      ),
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const element = (tag, attributes, text) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const showError = (message) => {
    let dialog = document.querySelector('[data-player-error]');
    if (dialog === null) {
      dialog = element('div', {
        role: 'alertdialog',
        'aria-modal': 'true',
        'aria-labelledby': 'lpc-player-error-title',
        'aria-describedby': 'lpc-player-error-message',
        'data-player-error': '',
      });
      dialog.append(element('h2', { id: 'lpc-player-error-title' }, config.errorTitle), element('p', { id: 'lpc-player-error-message' }));
      root.append(dialog);
    }
    dialog.querySelector('p').textContent = message;
  };

  const applyTheme = (branding) => {
    if (branding === null || config.branding !== 'applied') return;
    const style = document.documentElement.style;
    style.setProperty('--lpc-primary', branding.primaryColor);
    style.setProperty('--lpc-background', branding.backgroundColor);
    if (branding.logoUrl) header.prepend(element('img', { 'data-logo': '', src: branding.logoUrl, alt: 'Department logo' }));
  };

  const stop = () => {
    if (playing === null) return;
    clearTimeout(playing.timer);
    playing.item.removeAttribute('data-playing');
    playing = null;
  };

  const tick = async (state) => {
    if (playing !== state) return;
    state.progress = Math.min(100, state.progress + config.progressStep);
    let response = null;
    try {
      response = await request('PUT', '/my-progress/' + config.courseId + '/lessons/' + state.lessonId, { progress: state.progress });
    } catch (error) {
      response = null;
    }
    if (playing !== state) return;
    if (response !== null && response.ok) {
      state.item.querySelector('[data-progress]').textContent = state.progress + '%';
      state.item.setAttribute('data-saved-progress', String(state.progress));
      if (state.progress >= 100) {
        state.item.setAttribute('data-lesson-state', 'completed');
        stop();
        return;
      }
    } else {
      const reason =
        response === null ? 'the server could not be reached' : response.status === 401 ? 'your session is no longer valid' : 'the server answered ' + response.status;
      if (config.saveError === 'dialog') showError('Your progress could not be saved: ' + reason + '. Open the course again to go on.');
      if (config.afterError === 'stop') {
        state.item.setAttribute('data-lesson-state', 'error');
        stop();
        return;
      }
    }
    state.timer = setTimeout(() => void tick(state), config.saveIntervalMs);
  };

  const play = (lessonId, item) => {
    stop();
    const state = { lessonId, item, progress: 0, timer: 0 };
    playing = state;
    item.setAttribute('data-playing', 'true');
    item.setAttribute('data-lesson-state', 'playing');
    state.timer = setTimeout(() => void tick(state), config.saveIntervalMs);
  };

  const render = (course, branding) => {
    root.querySelector('[data-course-name]').textContent = course.name;
    applyTheme(branding);
    if (config.tagsVisible) {
      for (const tag of course.tags) tagList.append(element('li', { 'data-tag': tag }, tag));
    } else {
      tagList.hidden = true;
    }
    for (const lesson of course.lessons) {
      const item = element('li', { 'data-lesson-id': lesson.id, 'data-lesson-state': 'idle' });
      const button = element('button', { type: 'button', 'data-play': '' }, 'Play');
      button.addEventListener('click', () => play(lesson.id, item));
      item.append(element('span', { 'data-lesson-name': '' }, lesson.name), element('span', { 'data-progress': '' }, '0%'), button);
      lessonList.append(item);
    }
    statusLine.textContent = '';
    root.setAttribute('data-state', 'ready');
  };

  const load = async () => {
    const [course, brand] = await Promise.all([request('GET', '/courses/' + config.courseId), request('GET', '/my-branding')]);
    if (!course.ok || !brand.ok) throw new Error('HTTP ' + (course.ok ? brand.status : course.status));
    return [await course.json(), await brand.json()];
  };

  load().then(
    ([course, brand]) => render(course, brand.branding),
    (error) => {
      root.setAttribute('data-state', 'error');
      statusLine.textContent = 'The course could not be loaded.';
      showError('The course could not be loaded (' + error.message + ').');
    },
  );
})();
`;
