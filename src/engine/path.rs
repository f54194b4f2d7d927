//! Path rules exactly as the server applies them (`PathUtils.validatePath`, parent lookup).
//!
//! The server works on raw strings: it validates some paths fully and only splits others at their
//! last `/`, so `"a/b"` gives NoNode (its "parent" `"a"` does not exist) while `"/a/"` gives
//! BadArguments once `/a` exists. Validation counts UTF-16 code units like Java does, so any
//! character outside the Basic Multilingual Plane (encoded as surrogates) is rejected.

/// Why `PathUtils.validatePath` refused a path (the message it would log).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InvalidPath(pub String);

/// `PathUtils.validatePath`: the full check applied to a created path, setData and check.
pub fn validate(path: &str) -> Result<(), InvalidPath> {
    let units: Vec<u16> = path.encode_utf16().collect();
    if units.is_empty() {
        return Err(InvalidPath("Path length must be > 0".into()));
    }
    if units[0] != u16::from(b'/') {
        return Err(InvalidPath("Path must start with / character".into()));
    }
    if units.len() == 1 {
        return Ok(());
    }
    if units[units.len() - 1] == u16::from(b'/') {
        return Err(InvalidPath("Path must not end with / character".into()));
    }
    validate_units(&units)
}

fn validate_units(c: &[u16]) -> Result<(), InvalidPath> {
    let slash = u16::from(b'/');
    let dot = u16::from(b'.');
    let segment_end = |i: usize| i + 1 == c.len() || c[i + 1] == slash;
    for i in 1..c.len() {
        let (ch, last) = (c[i], c[i - 1]);
        let reason = if ch == 0 {
            "null character not allowed"
        } else if ch == slash && last == slash {
            "empty node name specified"
        } else if ch == dot && last == dot {
            if c[i - 2] == slash && segment_end(i) {
                "relative paths not allowed"
            } else {
                continue;
            }
        } else if ch == dot {
            if last == slash && segment_end(i) {
                "relative paths not allowed"
            } else {
                continue;
            }
        } else if is_forbidden_unit(ch) {
            "invalid character"
        } else {
            continue;
        };
        return Err(InvalidPath(format!("{reason} @{i}")));
    }
    Ok(())
}

fn is_forbidden_unit(c: u16) -> bool {
    (0x0001..=0x001f).contains(&c)
        || (0x007f..=0x009f).contains(&c)
        || (0xd800..=0xf8ff).contains(&c)
        || c >= 0xfff0
}

/// `path.substring(0, path.lastIndexOf('/'))`; `None` when there is no `/` at all.
/// The parent of `/a` is `""`, which the server's node map resolves to the root.
pub fn raw_parent(path: &str) -> Option<&str> {
    path.rfind('/').map(|i| &path[..i])
}

/// The last segment after the final `/` (the child's name under its parent).
pub fn child_name(path: &str) -> &str {
    path.rfind('/').map_or(path, |i| &path[i + 1..])
}

/// The path a parent reports in NodeChildrenChanged: `""` is the root, `/`.
pub fn event_parent(parent: &str) -> &str {
    if parent.is_empty() {
        "/"
    } else {
        parent
    }
}

/// Joins a parent path and a child name into the child's full path.
pub fn join(parent: &str, name: &str) -> String {
    if parent == "/" || parent.is_empty() {
        format!("/{name}")
    } else {
        format!("{parent}/{name}")
    }
}

/// Nodes that can never be deleted (`DataTree.isSpecialPath`).
pub fn is_special(path: &str) -> bool {
    matches!(
        path,
        "/" | "/zookeeper" | "/zookeeper/quota" | "/zookeeper/config"
    )
}

/// The `%010d` sequential suffix (Java formatting: a negative int prints as `-` + digits).
pub fn sequence_suffix(counter: i32) -> String {
    format!("{counter:010}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_paths() {
        for p in [
            "/",
            "/a",
            "/a/b",
            "/locks/lock-0000000001",
            "/.a",
            "/a.",
            "/a/...",
            "/锁",
        ] {
            assert_eq!(validate(p), Ok(()), "{p}");
        }
    }

    #[test]
    fn rejects_what_path_utils_rejects() {
        for p in [
            "",
            "a",
            "/a/",
            "//",
            "/a//b",
            "/.",
            "/a/..",
            "/a/./b",
            "/a\0",
            "/\u{1}",
            "/😀",
            "/\u{e000}",
            "/\u{fff0}",
            "/\u{85}",
        ] {
            assert!(validate(p).is_err(), "{p:?} should be invalid");
        }
    }

    #[test]
    fn parent_is_substring_before_last_slash() {
        assert_eq!(raw_parent("/a"), Some(""));
        assert_eq!(raw_parent("/a/b"), Some("/a"));
        assert_eq!(raw_parent("a/b"), Some("a"));
        assert_eq!(raw_parent("/a/"), Some("/a"));
        assert_eq!(raw_parent("a"), None);
        assert_eq!(child_name("/a/b"), "b");
        assert_eq!(join("/", "x"), "/x");
        assert_eq!(join("/p", "x"), "/p/x");
    }

    #[test]
    fn suffix_is_ten_digits_like_java() {
        assert_eq!(sequence_suffix(7), "0000000007");
        assert_eq!(sequence_suffix(i32::MAX), "2147483647");
        assert_eq!(sequence_suffix(i32::MIN), "-2147483648");
    }
}
