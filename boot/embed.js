// An embed's page-level glue, inlined into every page (<link data-trunk rel="inline">) and
// active only inside a frame with embed=1. Plain DOM work that needs no state of the run:
// 1. Commands the host posts before the app runs (on the iframe's load event, say) wait in
//    window.__lockstepQueue (at most 64); the app obeys them in order once it listens
//    (ui/embed.rs sets the queue to null, which ends the queueing here).
// 2. lockstep:resize {height}: the height the figure wants at the frame's width (the stage at
//    its natural aspect plus the caption, chapter box and transport as drawn), posted whenever
//    it changes, so a host can size the iframe to it (the README's snippet, <lockstep-player>).
// 3. Off screen or in a hidden tab, playback pauses (the Play button is pressed for it) and
//    resumes when the figure is back, if it was playing.
// 4. "Open in Lockstep" under a sandbox without allow-popups: the link says why nothing opened
//    and offers the address to copy.
(function () {
  var q = new URLSearchParams(location.search);
  if (window.parent === window || (q.get('embed') !== '1' && q.get('embed') !== 'true')) return;
  var parent = window.parent;
  window.__lockstepQueue = [];
  addEventListener('message', function (e) {
    var d = e.data, queue = window.__lockstepQueue;
    if (!queue || e.source !== parent || !d || typeof d !== 'object') return;
    var t = d.type;
    if (typeof t === 'string' && t.length < 33 && t.indexOf('lockstep:') === 0 && queue.length < 64) queue.push(d);
  });
  function post(m) { try { parent.postMessage(m, '*'); } catch (err) { /* a closed host */ } }

  // 2. The natural height: everything but the stage as drawn, plus the stage at its aspect.
  var last = 0;
  function measure() {
    var host = document.querySelector('.ls-embed .ls-stage-host');
    if (!host) return;
    var w = document.documentElement.clientWidth;
    var stage = Math.round(Math.min(Math.max(w * 0.56, 150), 720));
    var others = Math.max(innerHeight, document.documentElement.scrollHeight) - host.getBoundingClientRect().height;
    var h = Math.round(Math.max(others, 0) + stage);
    if (Math.abs(h - last) > 1) { last = h; post({ type: 'lockstep:resize', height: h }); }
  }
  var queued = false;
  function soon() { if (!queued) { queued = true; requestAnimationFrame(function () { queued = false; measure(); }); } }

  // 3. Pause off screen, resume when back (only what this script paused).
  var visible = true, onScreen = true, paused = false;
  function play() { return document.querySelector('.ls-embed #ls-play'); }
  function apply() {
    var b = play();
    if (!b) return;
    var playing = b.getAttribute('aria-pressed') === 'true';
    if (!(visible && onScreen) && playing) { paused = true; b.click(); }
    else if (visible && onScreen && paused) { paused = false; if (!playing) b.click(); }
  }
  document.addEventListener('visibilitychange', function () { visible = !document.hidden; apply(); });

  function started() {
    var embed = document.querySelector('.ls-embed');
    if (!embed) return false;
    if (window.ResizeObserver) new ResizeObserver(soon).observe(embed);
    addEventListener('resize', soon);
    new MutationObserver(soon).observe(embed, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
    soon();
    if (window.IntersectionObserver) {
      new IntersectionObserver(function (es) {
        onScreen = es[es.length - 1].isIntersecting;
        apply();
      }).observe(document.documentElement);
    }
    // A play the reader or the host starts clears what this script remembered.
    embed.addEventListener('click', function (e) { if (e.isTrusted && e.target.closest && e.target.closest('#ls-play')) paused = false; }, true);
    embed.addEventListener('click', openLink, true);
    return true;
  }
  if (!started()) {
    var mo = new MutationObserver(function () { if (started()) mo.disconnect(); });
    mo.observe(document.documentElement, { childList: true, subtree: true });
  }

  // 4. A sandbox without allow-popups blocks the new window: say so, offer the address.
  function openLink(e) {
    var a = e.target.closest && e.target.closest('.ls-embed__open');
    if (!a) return;
    e.preventDefault();
    var w = null;
    try { w = window.open(a.href, '_blank'); } catch (err) { w = null; }
    if (w) { try { w.opener = null; } catch (err) { /* cross-origin */ } return; }
    var old = document.querySelector('.ls-embed__notice');
    if (old) old.remove();
    var zh = (document.querySelector('.ls-app') || document.documentElement).getAttribute('lang') === 'zh-Hans';
    var p = document.createElement('p');
    p.className = 'ls-embed__notice';
    p.setAttribute('role', 'alert');
    p.textContent = zh
      ? '这个嵌入框不允许打开新窗口（它的 sandbox 缺少 allow-popups）。复制这个地址：'
      : 'This frame may not open a new window (its sandbox lacks allow-popups). Copy the address:';
    var input = document.createElement('input');
    input.readOnly = true;
    input.value = a.href;
    input.setAttribute('aria-label', zh ? '地址' : 'Address');
    p.appendChild(input);
    document.body.appendChild(p);
    input.focus();
    input.select();
    setTimeout(function () { p.remove(); }, 15000);
  }
})();
