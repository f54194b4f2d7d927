//! The language's own tests: what the parser and compiler refuse (with line and column). The
//! teaching recipes' files are read by `starters`' test.

use super::Source;

fn refuses(text: &str, line: usize, words: &str) {
    match Source::new(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => {
            assert_eq!(e.line, line, "{e}");
            assert!(e.msg.contains(words), "{e}");
        }
    }
}

#[test]
fn errors_name_their_line_and_column() {
    refuses("lock:\n    hold x\n", 2, "`x` is never set");
    refuses(
        "lock:\n    made = create \"/lock\" ephemeral\n    if made\n        hold\n",
        3,
        "expected `:`",
    );
    refuses("lock:\n  hold\n   hold\n", 3, "indentation");
    refuses("lock:\n    break\n", 2, "outside a `loop:`");
    refuses("lock:\n    x = \"open\n", 2, "closing quote");
    refuses("lock:\n    x = lowest()\n", 2, "takes 1 argument");
    refuses("lock:\n    x = foo(1)\n", 2, "no function `foo`");
    refuses(
        "lock:\n    x = 1\n    y = x.bogus\n",
        3,
        "no field `.bogus`",
    );
    refuses("unlock:\n    stop\n", 1, "needs a `lock:` block");
    refuses("lock:\n\thold\n", 2, "tabs");
    refuses("service mysql\nlock:\n    hold\n", 1, "zookeeper or redis");
    refuses("lock:\n    token = 1\n", 2, "word of the language");
    let e = Source::new("lock:\n    hold 1 2\n").unwrap_err();
    assert_eq!((e.line, e.col), (2, 12), "{e}");
}

#[test]
fn deep_or_long_texts_are_refused_not_overflowed() {
    let deep = format!("lock:\n    x = {}1{}\n", "(".repeat(200), ")".repeat(200));
    refuses(&deep, 2, "nest");
    let mut nested = String::from("lock:\n");
    for i in 0..60 {
        nested.push_str(&format!("{}loop:\n", "    ".repeat(i + 1)));
    }
    nested.push_str(&format!("{}hold\n", "    ".repeat(61)));
    refuses(&nested, 33, "nest");
    refuses(&"#".repeat(super::MAX_TEXT + 1), 1, "bytes");
}
