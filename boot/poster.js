// Poster loader (issue 22), inlined into index.html and full.html by Trunk and scripts/bundle.mjs
// (<link data-trunk rel="inline">). The built site (scripts/posters.mjs) lists in P the first
// paints it has stored for this page: of the bare address and of embed links at key frames and
// of the course's chapters (`learn`). The
// one a link asks for is shown until the live stage draws (ui/browser.rs drop_poster), so a reader
// sees the drawing before the WebAssembly arrives. Under `trunk serve` P stays empty: no poster.
(function () {
  var P = {};
  try {
    var q = new URLSearchParams(location.search), known = true;
    q.forEach(function (v, k) { if (['preset', 'at', 'embed', 'lang', 'learn', 'end', 'autoplay', 'loop', 'speed'].indexOf(k) < 0) known = false; });
    var lang = q.get('lang') || (/^zh/i.test(navigator.language || '') ? 'zh' : 'en');
    var mode = q.get('embed') === '1' ? 'e' : 'p';
    var key = q.get('preset') === null && q.get('at') === null ? 'home' : q.get('preset') + '.' + q.get('at');
    if (q.get('learn') !== null) key += '~' + q.get('learn');
    if (!known || !P.k || P.k.indexOf(mode + ':' + key) < 0 || (lang !== 'en' && lang !== 'zh')) return;
    // The stored size nearest the window's (a stage drawn for another size is scaled).
    var w = innerWidth, h = innerHeight, best = null, off = 1 / 0;
    P.s[mode].forEach(function (s) {
      var d = s.split('x'), o = Math.abs(Math.log(d[0] / w)) + Math.abs(Math.log(d[1] / h));
      if (o < off) { off = o; best = s; }
    });
    if (off > 0.5) return;
    var file = P.d + mode + '-' + key + '-' + lang + '-' + best;
    var got = function (url) {
      return fetch(url).then(function (r) { return r.ok ? r.text() : null; });
    };
    // The frame one Step on is asked for beside it (a few KB): a reader who presses Step on the
    // poster sees it at once.
    var next = (P.n || []).indexOf(mode + ':' + key) < 0 ? Promise.resolve(null)
      : got(file + '.next.html').catch(function () { return null; });
    got(file + '.html').then(function (html) {
      if (html === null) return;
      var show = function () {
        var boot = document.getElementById('ls-boot');
        if (!boot || boot.className !== 'ls-boot' || document.documentElement.getAttribute('data-started')) return;
        boot.className = 'ls-boot ls-boot--poster';
        place(boot, html);
        queue(boot, next);
      };
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show); else show();
    }, function () {});
  } catch (e) { /* no poster: the page loads as before */ }

  /** Shows a poster's markup in the boot element, in place of the one shown before. */
  function place(boot, html) {
    var old = boot.querySelector('[data-poster-query]');
    if (old) old.remove();
    boot.insertAdjacentHTML('beforeend', html);
    if (off > 0) {
      var svg = boot.querySelector('svg.ls-stage');
      if (svg) { svg.setAttribute('width', '100%'); svg.setAttribute('height', '100%'); }
    }
    [].forEach.call(boot.querySelectorAll('[data-poster-scroll]'), function (e) {
      var xy = e.getAttribute('data-poster-scroll').split(',');
      e.scrollLeft = +xy[0]; e.scrollTop = +xy[1];
    });
  }

  // A poster is a picture, but a reader may press its transport before the app is there. The
  // first Step shows the step poster (the live page's first paint of the frame one Step on) and
  // writes that frame's query into the address bar, where the app reads it when it starts. Any
  // other press is kept (the button shows it) and given to the live button once the poster goes.
  function queue(boot, next) {
    var PRESSABLE = ['ls-first', 'ls-back', 'ls-play', 'ls-step', 'ls-last'];
    var pressed = null, stepped = false, ready = null;
    var started = function () { return !!document.documentElement.getAttribute('data-started'); };
    var step = function () {
      if (stepped || !ready || started() || !document.getElementById('ls-boot')) return false;
      var t = document.createElement('template');
      t.innerHTML = ready;
      var query = t.content.firstElementChild && t.content.firstElementChild.getAttribute('data-poster-query');
      if (!query) return false;
      // The posters of a language serve links with and without lang=: a link's own is kept.
      var to = new URLSearchParams(query);
      if (q.get('lang')) to.set('lang', q.get('lang'));
      try {
        history.replaceState(history.state, '', '?' + to + location.hash);
      } catch (e) { return false; } // a sandboxed frame may not: the press waits for the app
      stepped = true;
      place(boot, ready);
      return true;
    };
    next.then(function (html) {
      ready = html;
      if (pressed && pressed.getAttribute('data-poster-id') === 'ls-step' && step()) pressed = null;
    });
    var press = function (b) {
      if (!pressed && b.getAttribute('data-poster-id') === 'ls-step' && step()) return;
      if (pressed && pressed.isConnected) pressed.classList.remove('ls-poster-pressed');
      pressed = b;
      b.classList.add('ls-poster-pressed');
    };
    boot.addEventListener('click', function (e) {
      var b = e.target.closest && e.target.closest('[data-poster-id]');
      if (!b || PRESSABLE.indexOf(b.getAttribute('data-poster-id')) < 0) return;
      e.preventDefault();
      press(b);
    });
    // The live page's keys (controls.rs install_keyboard), until the live page has them.
    var KEYS = { ArrowRight: 'ls-step', ArrowLeft: 'ls-back', ' ': 'ls-play', Home: 'ls-first', End: 'ls-last' };
    var keys = function (e) {
      var b = KEYS[e.key] && boot.querySelector('[data-poster-id="' + KEYS[e.key] + '"]');
      if (!b || started() || e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      e.preventDefault();
      press(b);
    };
    addEventListener('keydown', keys);
    new MutationObserver(function (records, obs) {
      if (document.getElementById('ls-boot')) return;
      obs.disconnect();
      removeEventListener('keydown', keys);
      var live = pressed && document.getElementById(pressed.getAttribute('data-poster-id'));
      if (live) live.click();
    }).observe(document.body, { childList: true });
  }
})();
