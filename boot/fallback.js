// Boot fallback, inlined into index.html and full.html (<link data-trunk rel="inline">). If the
// app's module cannot load (a sandboxed iframe whose host does not send CORS
// headers, a blocked script, an old browser), say why instead of leaving a blank frame.
(function () {
  function explain(detail) {
    var root = document.documentElement;
    if (root.getAttribute('data-started')) return;
    var boot = document.getElementById('ls-boot');
    if (!boot) return;
    boot.className = 'ls-boot ls-boot--failed';
    boot.innerHTML = '';
    var lines = [
      ['h1', 'Lockstep could not start'],
      ['p', 'The app\u2019s script or WebAssembly module did not load' + (detail ? ' (' + detail + ')' : '') + '.'],
      ['p', 'In a sandboxed iframe (sandbox="allow-scripts" without allow-same-origin) the page has an opaque origin, so the server that hosts Lockstep must send the header  Access-Control-Allow-Origin: *  for its .js, .wasm and .css files. Alternatively add allow-same-origin to the iframe\u2019s sandbox attribute.'],
      ['p', 'Lockstep 无法启动：脚本或 WebAssembly 模块没有加载。在沙箱 iframe 中（sandbox="allow-scripts" 且没有 allow-same-origin），托管 Lockstep 的服务器必须为 .js、.wasm 和 .css 文件发送响应头  Access-Control-Allow-Origin: *  ；或者在 iframe 的 sandbox 属性中加上 allow-same-origin。']
    ];
    lines.forEach(function (l) { var e = document.createElement(l[0]); e.textContent = l[1]; boot.appendChild(e); });
  }
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && (t.tagName === 'SCRIPT' || t.tagName === 'LINK')) {
      // An inline module script has no URL of its own: name what it was loading.
      var pre = document.querySelector('link[rel="modulepreload"], link[href$=".wasm"], script[type="module"][src]');
      explain('blocked: ' + (t.src || t.href || (pre && (pre.href || pre.src)) || 'the app\u2019s module script'));
    }
  }, true);
  window.addEventListener('unhandledrejection', function (e) { explain(String(e.reason || '').slice(0, 160)); });
  setTimeout(function () { explain('nothing ran after 12 seconds'); }, 12000);
})();
