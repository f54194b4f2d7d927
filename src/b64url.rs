//! base64url without padding (RFC 4648 §5), the form of every text the page carries in a link.
//!
//! The `base64` crate's general-purpose engine was 2.5 KB gzip of the first page's wasm for
//! these two calls; this is the same alphabet and the same strictness (no padding, no other
//! characters, no stray bits after the last byte), checked against the crate in the tests.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Encodes bytes as base64url, no padding.
pub fn encode(bytes: impl AsRef<[u8]>) -> String {
    let bytes = bytes.as_ref();
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// The value of one base64url character.
fn value(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// Decodes base64url without padding; the error names the offending character or length.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    let text = text.as_bytes();
    if text.len() % 4 == 1 {
        return Err(format!("{} characters cannot be base64url", text.len()));
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for (k, chunk) in text.chunks(4).enumerate() {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = value(c).ok_or_else(|| {
                format!(
                    "invalid character {:?} at offset {}",
                    char::from(c),
                    4 * k + i
                )
            })?;
            n |= v << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        let keep = chunk.len() - 1;
        if bytes[1 + keep..].iter().any(|&b| b != 0) {
            return Err(format!(
                "stray bits in the last character, offset {}",
                4 * k + keep
            ));
        }
        out.extend_from_slice(&bytes[1..=keep]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use proptest::prelude::*;

    const CRATE: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

    #[test]
    fn rfc4648_vectors() {
        let cases = ["", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE", "Zm9vYmFy"];
        for (n, want) in cases.iter().enumerate() {
            assert_eq!(encode(&b"foobar"[..n]), *want);
            assert_eq!(decode(want).unwrap(), &b"foobar"[..n]);
        }
        assert_eq!(encode([0xfb, 0xff]), "-_8");
    }

    #[test]
    fn refuses_what_the_crate_refuses() {
        for bad in [
            "Zm9v=", "Zg==", "Z", "Zm9vY", "Zh", "Zm9", "%%%", "Zm 9v", "Zm+v", "Zm/v",
        ] {
            assert_eq!(decode(bad).is_ok(), CRATE.decode(bad).is_ok(), "{bad}");
        }
        assert!(decode("Zh").unwrap_err().contains("stray bits"));
        assert!(decode("%%%").unwrap_err().contains("'%'"));
    }

    proptest! {
        #[test]
        fn encodes_as_the_crate_does(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let text = encode(&bytes);
            prop_assert_eq!(&text, &CRATE.encode(&bytes));
            prop_assert_eq!(decode(&text).unwrap(), bytes);
        }

        #[test]
        fn decodes_as_the_crate_does(text in prop_oneof!["[A-Za-z0-9_-]{0,40}", "[A-Za-z0-9_=+/ %-]{0,40}"]) {
            prop_assert_eq!(decode(&text).ok(), CRATE.decode(&text).ok());
        }
    }
}
