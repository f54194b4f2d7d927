//! The few browser facilities the app uses, each failing softly (a sandboxed iframe may deny
//! clipboard, history or downloads; none of that may break the page).

use wasm_bindgen::JsCast;

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The page's query string (`?…`), or empty.
pub fn query() -> String {
    window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The page address's fragment without its `#` (the pages hand "animation" and "lesson" over).
pub fn hash() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
        .trim_start_matches('#')
        .to_string()
}

/// The page's query without its `?`, and its fragment with its `#`: what a hand-over carries.
pub fn query_and_hash() -> String {
    let hash = hash();
    let hash = if hash.is_empty() {
        hash
    } else {
        format!("#{hash}")
    };
    format!("{}{hash}", query().trim_start_matches('?'))
}

/// The page address without its query.
pub fn base_url() -> String {
    let Some(loc) = window().map(|w| w.location()) else {
        return String::new();
    };
    format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    )
}

/// The address links made here lead to: this page's, except on the studio page, whose links
/// (share, embed, a lesson's) lead to the full page: the same frame, less to download.
pub fn share_base() -> String {
    let base = base_url();
    match base.strip_suffix("studio.html") {
        Some(dir) => format!("{dir}full.html"),
        None => base,
    }
}

/// Opens the full bundle's page (`full.html` beside this one) with this query: the lean first
/// bundle hands over to it for the other lock services, compare mode and the matrix.
pub fn go_full(q: &str) {
    go_page("full.html", q);
}

/// Opens the studio page (`studio.html` beside this one) with this query: the lean and full
/// pages hand over to it for the animated export and the lesson editor.
pub fn go_studio(q: &str) {
    go_page("studio.html", q);
}

fn go_page(file: &str, q: &str) {
    let Some(loc) = window().map(|w| w.location()) else {
        return;
    };
    let path = loc.pathname().unwrap_or_default();
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let _ = loc.replace(&format!(
        "{}{dir}{file}?{q}",
        loc.origin().unwrap_or_default()
    ));
}

pub fn browser_language() -> Option<String> {
    window().and_then(|w| w.navigator().language())
}

/// Replaces the address bar's query without a reload (ignored where history is denied).
pub fn replace_query(q: &str) {
    if let Some(h) = window().and_then(|w| w.history().ok()) {
        let url = format!("{}?{q}", base_url());
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Copies text to the clipboard; false if the browser refuses (the caller shows the text).
pub fn copy(text: &str) -> bool {
    let Some(w) = window() else { return false };
    // Some contexts (plain http, sandboxed frames) have no clipboard at all.
    let has = js_sys::Reflect::get(&w.navigator(), &"clipboard".into())
        .is_ok_and(|v| !v.is_undefined() && !v.is_null());
    if !has {
        return false;
    }
    let promise = w.navigator().clipboard().write_text(text);
    wasm_bindgen_futures::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    });
    true
}

/// `text` as a Blob of type `mime`.
pub fn text_blob(text: &str, mime: &str) -> Option<web_sys::Blob> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let props = web_sys::BlobPropertyBag::new();
    props.set_type(mime);
    web_sys::Blob::new_with_str_sequence_and_options(&parts, &props).ok()
}

/// Offers `text` as a file download.
pub fn download(name: &str, mime: &str, text: &str) {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    let Some(blob) = text_blob(text, mime) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = doc
        .create_element("a")
        .map(|e| e.unchecked_into::<web_sys::HtmlAnchorElement>())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Reads the first file of an `<input type=file>` as text, then calls `done`.
pub fn read_file(
    input: &web_sys::HtmlInputElement,
    done: impl FnOnce(Result<String, String>) + 'static,
) {
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    // Refused before it is read or parsed (the limit `Run::from_json` also applies).
    let most = crate::sim::scenario::MAX_SCENARIO_BYTES;
    if file.size() > most as f64 {
        done(Err(format!(
            "the file is larger than {most} bytes (4 MiB), the most a run may be"
        )));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
        done(
            text.ok()
                .and_then(|v| v.as_string())
                .ok_or_else(|| "the file could not be read as text".to_string()),
        );
    });
}

/// Milliseconds on the page's clock (animation only; the simulation never reads it).
pub fn now() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The viewport's width in CSS pixels.
pub fn viewport_width() -> f64 {
    window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(1280.0)
}

/// Whether the reader asked for less motion.
pub fn reduced_motion() -> bool {
    window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// Calls `f(width, height)` with the element's content size now and whenever it changes.
pub fn observe_size(
    node: leptos::prelude::NodeRef<leptos::html::Div>,
    f: impl Fn(u32, u32) + 'static,
) {
    use leptos::prelude::{Effect, Get};
    let f = std::rc::Rc::new(f);
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(el) = node.get() else { return false };
        let el: web_sys::Element = el.into();
        let rect = el.get_bounding_client_rect();
        f(rect.width().round() as u32, rect.height().round() as u32);
        let g = f.clone();
        let cb = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                if let Some(e) = entries
                    .get(0)
                    .dyn_into::<web_sys::ResizeObserverEntry>()
                    .ok()
                {
                    let r = e.content_rect();
                    g(r.width().round() as u32, r.height().round() as u32);
                }
            },
        );
        if let Ok(obs) = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()) {
            obs.observe(&el);
            // The observer lives as long as the page.
            std::mem::forget(obs);
        }
        cb.forget();
        true
    });
}

/// Tells the page's boot script that the app is running (it removes the "could not start"
/// fallback it would otherwise show).
pub fn mark_started() {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("data-started", "1");
    }
    if let Some(boot) = doc.get_element_by_id("ls-boot") {
        if boot.class_list().contains("ls-boot--poster") {
            // The poster stays over the app until the stage draws (or, whatever happens, 3 s).
            leptos::prelude::set_timeout(drop_poster, std::time::Duration::from_secs(3));
        } else {
            boot.remove();
        }
    }
}

/// Takes away the poster index.html's loader showed (the first paint stored by
/// scripts/posters.mjs): the live stage has drawn beneath it, in this same task, so the next
/// paint shows the live page where the poster was.
pub fn drop_poster() {
    let doc = window().and_then(|w| w.document());
    if let Some(boot) = doc.and_then(|d| d.get_element_by_id("ls-boot")) {
        boot.remove();
    }
}

/// A value from localStorage; None where the page may not use it (a sandboxed embed throws).
pub fn stored(key: &str) -> Option<String> {
    let s = window()?.local_storage().ok()??;
    s.get_item(key).ok().flatten()
}

/// Stores a value in localStorage where the page may (ignored where it may not).
pub fn store(key: &str, value: &str) {
    if let Some(Ok(Some(s))) = window().map(|w| w.local_storage()) {
        let _ = s.set_item(key, value);
    }
}

/// Sets the document's title.
pub fn set_title(t: &str) {
    if let Some(d) = web_sys::window().and_then(|w| w.document()) {
        d.set_title(t);
    }
}
