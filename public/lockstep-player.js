// <lockstep-player>: a Lockstep figure as one element, for blog posts and course pages.
//
//   <script type="module" src="https://…/lockstep/public/lockstep-player.js"></script>
//   <lockstep-player preset="holder-crash" start="20" end="45" loop autoplay lang="zh"></lockstep-player>
//
// Attributes are the embed's link parameters (preset, learn, lesson, scenario, cmds, at,
// start, end, autoplay, loop, speed, controls, theme, lang) plus `src` (where Lockstep is
// served; by default the folder above this script) and `height` (a fixed height in pixels;
// without it the figure sizes itself from its lockstep:resize messages). Methods and
// properties follow <video>: play(), pause(), seek(step), step(by), currentStep, paused,
// ended, duration (the run's length in steps, once known), keyFrames, lang. Events: ready,
// step (detail: the lockstep:frame message), play, pause, ended, resize. Commands given
// before the figure is ready wait for it. It needs nothing from the page but this script.
const PARAMS = ['preset', 'learn', 'lesson', 'scenario', 'cmds', 'at', 'start', 'end', 'speed', 'theme', 'lang', 'seed', 'recipe', 'clients'];
const FLAGS = ['autoplay', 'loop'];
const SCRIPT = new URL(import.meta.url);

class LockstepPlayer extends HTMLElement {
  static get observedAttributes() { return [...PARAMS, ...FLAGS, 'controls', 'src', 'height']; }

  constructor() {
    super();
    this._frame = null;
    this._ready = false;
    this._queue = [];
    this._state = { at: 0, steps: 0, length: null, playing: false, ended: false, keyFrames: [], lang: null };
    this._onMessage = (e) => this._message(e);
  }

  connectedCallback() {
    if (!this._frame) this._build();
    addEventListener('message', this._onMessage);
  }

  disconnectedCallback() { removeEventListener('message', this._onMessage); }

  attributeChangedCallback() {
    if (!this._frame) return;
    // A new run: load its query in place (the frame keeps its place on the page).
    if (this._ready) this._send({ type: 'lockstep:load', query: this._query() });
    this._size();
  }

  _base() {
    const src = this.getAttribute('src');
    return src ? new URL(src, document.baseURI) : new URL('../', SCRIPT);
  }

  _query() {
    const q = new URLSearchParams();
    for (const p of PARAMS) if (this.hasAttribute(p)) q.set(p, this.getAttribute(p));
    for (const f of FLAGS) if (this.hasAttribute(f) && this.getAttribute(f) !== '0' && this.getAttribute(f) !== 'false') q.set(f, '1');
    if (this.getAttribute('controls') === '0' || this.getAttribute('controls') === 'false') q.set('controls', '0');
    q.set('embed', '1');
    return q.toString();
  }

  _build() {
    const f = document.createElement('iframe');
    f.src = `${this._base().href}?${this._query()}`;
    f.title = this.getAttribute('title') || 'Lockstep';
    f.setAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
    f.setAttribute('loading', 'lazy');
    f.style.cssText = 'display:block;width:100%;border:0;';
    this.style.display = this.style.display || 'block';
    this._frame = f;
    this._size(500);
    this.appendChild(f);
  }

  _size(h) {
    const fixed = Number(this.getAttribute('height'));
    if (fixed > 0) this._frame.style.height = `${fixed}px`;
    else if (h) this._frame.style.height = `${h}px`;
  }

  _send(m) {
    if (!this._ready) { if (this._queue.length < 64) this._queue.push(m); return; }
    this._frame.contentWindow.postMessage(m, '*');
  }

  _emit(name, detail) { this.dispatchEvent(new CustomEvent(name, { detail })); }

  _message(e) {
    if (!this._frame || e.source !== this._frame.contentWindow) return;
    const d = e.data;
    if (!d || typeof d !== 'object' || typeof d.type !== 'string') return;
    const s = this._state;
    switch (d.type) {
      case 'lockstep:ready':
        this._ready = true;
        Object.assign(s, { steps: d.steps, length: d.length, keyFrames: d.keyFrames || [], lang: d.lang });
        for (const m of this._queue.splice(0)) this._send(m);
        this._emit('ready', d);
        break;
      case 'lockstep:frame':
        s.ended = s.ended && d.at === s.at;
        Object.assign(s, { at: d.at, steps: d.steps, length: d.length ?? s.length, lang: d.lang });
        this._emit('step', d);
        break;
      case 'lockstep:playing': s.playing = true; s.ended = false; this._emit('play', d); break;
      case 'lockstep:paused': s.playing = false; this._emit('pause', d); break;
      case 'lockstep:ended': s.playing = false; s.ended = true; this._emit('ended', d); break;
      case 'lockstep:resize':
        if (typeof d.height === 'number' && d.height > 0 && d.height < 10000) { this._size(d.height); this._emit('resize', d); }
        break;
      default:
    }
  }

  play() { this._send({ type: 'lockstep:play' }); }
  pause() { this._send({ type: 'lockstep:pause' }); }
  seek(at) { this._send({ type: 'lockstep:seek', at: Math.max(0, Math.round(at)) }); }
  step(by = 1) { this._send({ type: 'lockstep:step', by: Math.round(by) }); }
  load(query) { this._send({ type: 'lockstep:load', query: String(query) }); }

  get currentStep() { return this._state.at; }
  set currentStep(at) { this.seek(at); }
  get paused() { return !this._state.playing; }
  get ended() { return this._state.ended; }
  get duration() { return this._state.length; }
  get keyFrames() { return this._state.keyFrames.slice(); }
  get lang() { return this._state.lang; }
  get ready() { return this._ready; }
}

if (!customElements.get('lockstep-player')) customElements.define('lockstep-player', LockstepPlayer);
export { LockstepPlayer };
