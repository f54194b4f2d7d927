//! An animated GIF from RGBA stills, with image-rs's `gif` encoder. A still is stored as the
//! rectangle that changed since the one before (drawn over it: a message moving along its
//! wire is a small rectangle, not a whole picture), with its own 256-colour palette (NeuQuant,
//! `color_quant`); the animation loops; delays are in hundredths of a second, as the format
//! keeps them.

use gif::{DisposalMethod, Encoder, Frame, Repeat};

/// How hard NeuQuant looks (1 best … 30 fastest); 10 is the crate's usual trade.
const SPEED: i32 = 10;

/// A GIF being written, one still at a time.
pub struct Gif {
    enc: Encoder<Vec<u8>>,
    w: u16,
    h: u16,
    frames: u32,
    /// The picture so far (RGBA), to find what the next still changes.
    shown: Vec<u8>,
}

impl Gif {
    /// A looping GIF of `w`×`h` pixels.
    pub fn new(w: u32, h: u32) -> Result<Gif, String> {
        let (w, h) = (
            u16::try_from(w).map_err(|_| "too wide")?,
            u16::try_from(h).map_err(|_| "too high")?,
        );
        let mut enc = Encoder::new(Vec::new(), w, h, &[]).map_err(|e| e.to_string())?;
        enc.set_repeat(Repeat::Infinite)
            .map_err(|e| e.to_string())?;
        Ok(Gif {
            enc,
            w,
            h,
            frames: 0,
            shown: Vec::new(),
        })
    }

    /// Adds a still (`rgba`: w×h×4 bytes) shown for `ms` milliseconds.
    pub fn push(&mut self, rgba: &[u8], ms: u32) -> Result<(), String> {
        let (w, h) = (usize::from(self.w), usize::from(self.h));
        if rgba.len() != w * h * 4 {
            return Err(format!("a still of {} bytes is not {w}×{h}", rgba.len()));
        }
        // The first still whole; then only the rectangle that changed (one pixel if none did).
        let (x, y, cw, ch) = if self.shown.is_empty() {
            (0, 0, w, h)
        } else {
            changed(&self.shown, rgba, w, h).unwrap_or((0, 0, 1, 1))
        };
        let mut part = Vec::with_capacity(cw * ch * 4);
        for row in y..y + ch {
            part.extend_from_slice(&rgba[(row * w + x) * 4..(row * w + x + cw) * 4]);
        }
        let mut frame = Frame::from_rgba_speed(cw as u16, ch as u16, &mut part, SPEED);
        frame.left = x as u16;
        frame.top = y as u16;
        frame.dispose = DisposalMethod::Keep;
        frame.delay = u16::try_from(ms.div_ceil(10)).unwrap_or(u16::MAX);
        self.enc.write_frame(&frame).map_err(|e| e.to_string())?;
        self.shown.clear();
        self.shown.extend_from_slice(rgba);
        self.frames += 1;
        Ok(())
    }

    /// Stills written so far.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.enc.get_ref().len()
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The finished file.
    pub fn finish(self) -> Result<Vec<u8>, String> {
        self.enc.into_inner().map_err(|e| e.to_string())
    }
}

/// The smallest rectangle (x, y, w, h) outside which `a` and `b` (RGBA, w×h) are equal; none
/// if they are equal everywhere.
fn changed(a: &[u8], b: &[u8], w: usize, h: usize) -> Option<(usize, usize, usize, usize)> {
    let row = |r: usize| &a[r * w * 4..(r + 1) * w * 4] != &b[r * w * 4..(r + 1) * w * 4];
    let top = (0..h).find(|r| row(*r))?;
    let bottom = (top..h).rev().find(|r| row(*r))?;
    let col = |c: usize| {
        (top..=bottom).any(|r| {
            let i = (r * w + c) * 4;
            a[i..i + 4] != b[i..i + 4]
        })
    };
    let left = (0..w).find(|c| col(*c))?;
    let right = (left..w).rev().find(|c| col(*c))?;
    Some((left, top, right - left + 1, bottom - top + 1))
}

#[cfg(test)]
mod tests {
    use super::changed;

    #[test]
    fn the_changed_rectangle_is_the_smallest_around_every_difference() {
        let (w, h) = (6, 4);
        let a = vec![0u8; w * h * 4];
        let mut b = a.clone();
        assert_eq!(changed(&a, &b, w, h), None);
        b[(w + 2) * 4] = 9; // (2, 1)
        b[(3 * w + 4) * 4 + 3] = 9; // (4, 3)
        assert_eq!(changed(&a, &b, w, h), Some((2, 1, 3, 3)));
    }
}
