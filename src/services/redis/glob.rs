//! Redis's glob matcher (`stringmatchlen` in util.c, 7.0) for KEYS and SCAN MATCH, byte for
//! byte: `*`, `?`, `[abc]`, `[^a]`, `[a-z]` (reversed ranges too), `\x`, and the same
//! answers for malformed patterns (an unclosed `[` takes the rest of the pattern as its set).

/// Whether `s` matches `pattern`.
pub fn matches(pattern: &str, s: &str) -> bool {
    let mut skip_longer = false;
    match_at(pattern.as_bytes(), s.as_bytes(), &mut skip_longer)
}

fn match_at(p: &[u8], s: &[u8], skip_longer: &mut bool) -> bool {
    // C reads the terminating NUL past the end; `at` does the same.
    let at = |b: &[u8], i: usize| b.get(i).copied().unwrap_or(0);
    let (mut pi, mut si) = (0usize, 0usize);
    while pi < p.len() && si < s.len() {
        match p[pi] {
            b'*' => {
                while pi < p.len() && at(p, pi + 1) == b'*' {
                    pi += 1;
                }
                if pi + 1 == p.len() {
                    return true;
                }
                while si < s.len() {
                    if match_at(&p[pi + 1..], &s[si..], skip_longer) {
                        return true;
                    }
                    if *skip_longer {
                        return false;
                    }
                    si += 1;
                }
                // No match for the rest anywhere: longer matches of an earlier `*` cannot help.
                *skip_longer = true;
                return false;
            }
            b'?' => si += 1,
            b'[' => {
                pi += 1;
                let not = at(p, pi) == b'^';
                if not {
                    pi += 1;
                }
                let c = s[si];
                let mut hit = false;
                loop {
                    if at(p, pi) == b'\\' && p.len() - pi >= 2 {
                        pi += 1;
                        hit |= p[pi] == c;
                    } else if at(p, pi) == b']' {
                        break;
                    } else if pi >= p.len() {
                        pi -= 1;
                        break;
                    } else if p.len() - pi >= 3 && p[pi + 1] == b'-' {
                        let (lo, hi) = (p[pi].min(p[pi + 2]), p[pi].max(p[pi + 2]));
                        pi += 2;
                        hit |= (lo..=hi).contains(&c);
                    } else {
                        hit |= p[pi] == c;
                    }
                    pi += 1;
                }
                if hit == not {
                    return false;
                }
                si += 1;
            }
            b'\\' if p.len() - pi >= 2 => {
                pi += 1;
                if p[pi] != s[si] {
                    return false;
                }
                si += 1;
            }
            ch => {
                if ch != s[si] {
                    return false;
                }
                si += 1;
            }
        }
        pi += 1;
        if si == s.len() {
            while at(p, pi) == b'*' {
                pi += 1;
            }
            break;
        }
    }
    pi >= p.len() && si == s.len()
}

#[cfg(test)]
mod tests {
    use super::matches;

    const KEYS: [&str; 4] = ["lock:1", "lock:10", "lock:2", "other"];

    fn keys(pattern: &str) -> Vec<&'static str> {
        KEYS.iter()
            .copied()
            .filter(|k| matches(pattern, k))
            .collect()
    }

    #[test]
    fn patterns_answer_as_recorded_from_redis_7() {
        assert_eq!(keys("*"), KEYS);
        assert_eq!(keys("lock:?"), ["lock:1", "lock:2"]);
        assert_eq!(keys("lock:*"), ["lock:1", "lock:10", "lock:2"]);
        assert_eq!(keys("lock:[12]"), ["lock:1", "lock:2"]);
        assert_eq!(keys("lock:[^1]*"), ["lock:2"]);
        assert_eq!(keys("lock:[0-9]"), ["lock:1", "lock:2"]);
        assert_eq!(keys("lock:[9-0]"), ["lock:1", "lock:2"]);
        assert_eq!(keys("lock:[1-]*"), ["lock:1", "lock:2"]);
        assert_eq!(keys("*["), Vec::<&str>::new());
        assert_eq!(keys("lock\\:1"), ["lock:1"]);
        assert_eq!(keys("lock:[1"), ["lock:1"]);
        assert_eq!(keys("?????"), ["other"]);
        assert_eq!(keys("*1*"), ["lock:1", "lock:10"]);
        assert_eq!(keys("**0"), ["lock:10"]);
    }

    #[test]
    fn edge_cases() {
        assert!(matches("", ""));
        assert!(!matches("", "a"));
        assert!(matches("a*", "a"));
        assert!(matches("a**", "a"));
        assert!(!matches("a?", "a"));
        assert!(matches("[\\]]", "]"));
        assert!(matches("[a\\-z]", "-"));
        assert!(!matches("[a\\-z]", "b"));
        assert!(matches("a\\", "a\\"));
        assert!(matches("*a*b*c*", "xxaxxbxxcxx"));
        // Exponential patterns end early (skipLongerMatches).
        assert!(!matches("a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", &"a".repeat(60)));
    }
}
