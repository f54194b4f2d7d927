//! WebM through the browser's own `MediaRecorder`: the canvas's stream with one frame
//! requested per still, each held for its real time (so recording takes as long as the video
//! lasts), offered only where the browser records `video/webm`.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

const MIME: &str = "video/webm";

/// Whether this browser can record a canvas as WebM.
pub fn supported() -> bool {
    web_sys::MediaRecorder::is_type_supported(MIME)
}

/// A recording in progress.
pub struct Recorder {
    rec: web_sys::MediaRecorder,
    track: web_sys::CanvasCaptureMediaStreamTrack,
    parts: Rc<RefCell<Vec<web_sys::Blob>>>,
    _data: Closure<dyn FnMut(web_sys::BlobEvent)>,
}

impl Recorder {
    /// Starts recording `canvas` (frames only when asked for).
    pub fn new(canvas: &web_sys::HtmlCanvasElement) -> Option<Recorder> {
        if !supported() {
            return None;
        }
        let stream = canvas.capture_stream_with_frame_request_rate(0.0).ok()?;
        let track: web_sys::CanvasCaptureMediaStreamTrack =
            stream.get_video_tracks().get(0).dyn_into().ok()?;
        let opts = web_sys::MediaRecorderOptions::new();
        opts.set_mime_type(MIME);
        let rec = web_sys::MediaRecorder::new_with_media_stream_and_media_recorder_options(
            &stream, &opts,
        )
        .ok()?;
        let parts: Rc<RefCell<Vec<web_sys::Blob>>> = Rc::default();
        let keep = parts.clone();
        let data = Closure::<dyn FnMut(web_sys::BlobEvent)>::new(move |e: web_sys::BlobEvent| {
            if let Some(b) = e.data() {
                keep.borrow_mut().push(b);
            }
        });
        rec.set_ondataavailable(Some(data.as_ref().unchecked_ref()));
        rec.start().ok()?;
        Some(Recorder {
            rec,
            track,
            parts,
            _data: data,
        })
    }

    /// Records what the canvas shows now, for `ms` milliseconds.
    pub async fn frame(&mut self, ms: u32) {
        self.track.request_frame();
        sleep(ms).await;
    }

    /// Stops and returns the video (`make` draws the last still once more before, so that its
    /// hold is recorded).
    pub async fn finish(self) -> Option<web_sys::Blob> {
        let stopped = js_sys::Promise::new(&mut |done, _| {
            self.rec.set_onstop(Some(&done));
        });
        self.rec.stop().ok()?;
        JsFuture::from(stopped).await.ok()?;
        let list = js_sys::Array::new();
        for b in self.parts.borrow().iter() {
            list.push(b);
        }
        let props = web_sys::BlobPropertyBag::new();
        props.set_type(MIME);
        web_sys::Blob::new_with_blob_sequence_and_options(&list, &props).ok()
    }
}

/// Resolves after `ms` milliseconds.
async fn sleep(ms: u32) {
    let p = js_sys::Promise::new(&mut |done, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&done, ms as i32);
        } else {
            let _ = done.call0(&JsValue::NULL);
        }
    });
    let _ = JsFuture::from(p).await;
}
