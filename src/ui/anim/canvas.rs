//! The animated export's canvas (SVG stills drawn through an `<img>`, read back as RGBA) and
//! its finished file (an object URL and a size).

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A finished file: bytes made here, or a Blob the browser made.
pub(super) enum Blob {
    Bytes(Vec<u8>),
    Js(web_sys::Blob),
}

impl Blob {
    /// An object URL for it, and its size.
    pub(super) fn url(self, mime: &str) -> Option<(String, usize)> {
        let blob = match self {
            Blob::Js(b) => b,
            Blob::Bytes(b) => {
                let arr = js_sys::Uint8Array::from(b.as_slice());
                let props = web_sys::BlobPropertyBag::new();
                props.set_type(mime);
                web_sys::Blob::new_with_u8_array_sequence_and_options(
                    &js_sys::Array::of1(&arr),
                    &props,
                )
                .ok()?
            }
        };
        let size = blob.size() as usize;
        Some((web_sys::Url::create_object_url_with_blob(&blob).ok()?, size))
    }
}

/// A canvas off the page that SVG stills are drawn onto.
pub(super) struct Canvas {
    pub(super) el: web_sys::HtmlCanvasElement,
    ctx: web_sys::CanvasRenderingContext2d,
    w: u32,
    h: u32,
}

impl Canvas {
    pub(super) fn new(w: u32, h: u32) -> Option<Canvas> {
        let doc = web_sys::window()?.document()?;
        let el: web_sys::HtmlCanvasElement = doc.create_element("canvas").ok()?.dyn_into().ok()?;
        el.set_width(w);
        el.set_height(h);
        // Read back after every still: a canvas kept in memory, not on the GPU.
        let opts = js_sys::Object::new();
        js_sys::Reflect::set(&opts, &"willReadFrequently".into(), &JsValue::TRUE).ok()?;
        let ctx = el
            .get_context_with_context_options("2d", &opts)
            .ok()??
            .dyn_into()
            .ok()?;
        Some(Canvas { el, ctx, w, h })
    }

    /// Draws an SVG document (through an `<img>`: the browser's own SVG renderer).
    pub(super) async fn draw(&self, svg: &str) -> Result<(), String> {
        let err = |e: JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
        let blob = super::super::browser::text_blob(svg, "image/svg+xml")
            .ok_or("the browser refused a still")?;
        let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
        let img =
            web_sys::HtmlImageElement::new_with_width_and_height(self.w, self.h).map_err(err)?;
        img.set_src(&url);
        let decoded = JsFuture::from(img.decode()).await;
        let _ = web_sys::Url::revoke_object_url(&url);
        decoded.map_err(err)?;
        self.ctx
            .draw_image_with_html_image_element(&img, 0.0, 0.0)
            .map_err(err)
    }

    /// The canvas's RGBA pixels.
    pub(super) fn pixels(&self) -> Result<Vec<u8>, String> {
        let data = self
            .ctx
            .get_image_data(0.0, 0.0, f64::from(self.w), f64::from(self.h))
            .map_err(|e| format!("{e:?}"))?;
        Ok(data.data().0)
    }
}
