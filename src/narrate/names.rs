//! Short forms of lock-node names for captions and narrow stages: a Curator protection prefix
//! `_c_<uuid>-` keeps its first four hex digits (`_c_193d…-lock-0000000003`), a kazoo node's
//! `<uuid hex>__lock__` likewise (`fe61…__lock__0000000000`); the sequence number always stays.

/// Whether `s` is a lower-case UUID with dashes (36 characters).
fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

/// The name with its random prefix cut to four characters (unchanged when it has none).
pub fn short_name(name: &str) -> String {
    if let Some(rest) = name.strip_prefix("_c_") {
        if rest.len() > 37 && is_uuid(&rest[..36]) {
            return format!("_c_{}…{}", &rest[..4], &rest[36..]);
        }
    }
    if let Some(i) = name.find("__lock__") {
        if i == 32 && name[..32].bytes().all(|b| b.is_ascii_hexdigit()) {
            return format!("{}…{}", &name[..4], &name[32..]);
        }
    }
    name.to_string()
}

/// The name without its random prefix at all (`lock-0000000003`, `__READ__0000000002`): what
/// a narrow label keeps.
pub fn tail_name(name: &str) -> String {
    let short = short_name(name);
    match short.find('…') {
        Some(i) => short[i + '…'.len_utf8()..]
            .trim_start_matches('-')
            .to_string(),
        None => short,
    }
}

/// The last component of a path, shortened.
pub fn short_path(path: &str) -> String {
    short_name(path.rsplit('/').next().unwrap_or(path))
}

/// The path with its last component shortened (`/locks/_c_193d…-lock-0000000000`).
pub fn compact_path(path: &str) -> String {
    match path.rfind('/') {
        Some(i) => format!("{}{}", &path[..=i], short_name(&path[i + 1..])),
        None => short_name(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_prefixes_shrink_and_sequence_numbers_stay() {
        assert_eq!(
            short_name("_c_193d9420-5336-4f7d-9ef9-8dbdb2fe285c-lock-0000000000"),
            "_c_193d…-lock-0000000000"
        );
        assert_eq!(
            short_name("fe618991f3124ee083d66d2125b9efcc__lock__0000000001"),
            "fe61…__lock__0000000001"
        );
        assert_eq!(short_name("lock-0000000003"), "lock-0000000003");
        assert_eq!(
            tail_name("_c_193d9420-5336-4f7d-9ef9-8dbdb2fe285c-__READ__0000000002"),
            "__READ__0000000002"
        );
        assert_eq!(
            tail_name("fe618991f3124ee083d66d2125b9efcc__lock__0000000001"),
            "__lock__0000000001"
        );
        assert_eq!(short_path("/locks/s/leases/x"), "x");
        assert_eq!(
            compact_path("/locks/_c_193d9420-5336-4f7d-9ef9-8dbdb2fe285c-lock-0000000000"),
            "/locks/_c_193d…-lock-0000000000"
        );
    }
}
