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
    q.forEach(function (v, k) { if (['preset', 'at', 'embed', 'lang', 'learn'].indexOf(k) < 0) known = false; });
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
    fetch(P.d + mode + '-' + key + '-' + lang + '-' + best + '.html').then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      if (html === null) return;
      var show = function () {
        var boot = document.getElementById('ls-boot');
        if (!boot || boot.className !== 'ls-boot' || document.documentElement.getAttribute('data-started')) return;
        boot.className = 'ls-boot ls-boot--poster';
        boot.insertAdjacentHTML('beforeend', html);
        if (off > 0) {
          var svg = boot.querySelector('svg.ls-stage');
          if (svg) { svg.setAttribute('width', '100%'); svg.setAttribute('height', '100%'); }
        }
        [].forEach.call(boot.querySelectorAll('[data-poster-scroll]'), function (e) {
          var xy = e.getAttribute('data-poster-scroll').split(',');
          e.scrollLeft = +xy[0]; e.scrollTop = +xy[1];
        });
        queue(boot);
      };
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show); else show();
    }, function () {});
  } catch (e) { /* no poster: the page loads as before */ }

  // A poster is a picture, but a reader may press its transport before the app is there: the
  // press is kept (the button shows it) and given to the live button once the poster goes.
  function queue(boot) {
    var PRESSABLE = ['ls-first', 'ls-back', 'ls-play', 'ls-step', 'ls-last'];
    var pressed = null;
    boot.addEventListener('click', function (e) {
      var b = e.target.closest && e.target.closest('[data-poster-id]');
      var id = b && b.getAttribute('data-poster-id');
      if (PRESSABLE.indexOf(id) < 0) return;
      e.preventDefault();
      if (pressed) pressed.classList.remove('ls-poster-pressed');
      pressed = b;
      b.classList.add('ls-poster-pressed');
    });
    new MutationObserver(function (records, obs) {
      if (document.getElementById('ls-boot')) return;
      obs.disconnect();
      var live = pressed && document.getElementById(pressed.getAttribute('data-poster-id'));
      if (live) live.click();
    }).observe(document.body, { childList: true });
  }
})();
