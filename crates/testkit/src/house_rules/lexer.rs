//! Rust source as the house rules read it: comments, string and character
//! literals blanked (their newlines kept, so line numbers stay true), and
//! test-only items (`#[cfg(test)]`, `#[test]`) blanked too, so a scanner
//! that looks for `fn`, braces or `crate::` paths sees only code that ships.
//!
//! A lexer of our own rather than `syn`: the rules need braces, words and
//! line numbers, not a syntax tree, and the test stays free of dependencies.

/// `text` with every comment and literal replaced by spaces (newlines
/// kept); the result has the same lines as `text`.
pub fn blank_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let end = if c == '/' && next == Some('/') {
            line_comment_end(&chars, i)
        } else if c == '/' && next == Some('*') {
            block_comment_end(&chars, i)
        } else if c == '"' {
            string_end(&chars, i + 1)
        } else if let Some(hashes) = raw_string_start(&chars, i) {
            raw_string_end(&chars, i, hashes)
        } else if c == '\'' {
            match char_literal_end(&chars, i) {
                Some(end) => end,
                None => {
                    // A lifetime or label: kept as code.
                    out.push(c);
                    i += 1;
                    continue;
                }
            }
        } else {
            out.push(c);
            i += 1;
            continue;
        };
        for &blanked in &chars[i..end.min(chars.len())] {
            out.push(if blanked == '\n' { '\n' } else { ' ' });
        }
        i = end;
    }
    out
}

fn line_comment_end(chars: &[char], start: usize) -> usize {
    let mut i = start;
    while i < chars.len() && chars[i] != '\n' {
        i += 1;
    }
    i
}

/// Block comments nest in Rust.
fn block_comment_end(chars: &[char], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < chars.len() {
        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// The index past the closing quote of a string whose body starts at `i`.
fn string_end(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// `r"`, `r#"`, `br##"`...: the number of hashes when a raw string starts
/// at `i` (and `i` does not continue an identifier such as `for`).
fn raw_string_start(chars: &[char], i: usize) -> Option<usize> {
    let continues_word = i > 0 && is_word(chars[i - 1]);
    if continues_word {
        return None;
    }
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some(hashes)
}

fn raw_string_end(chars: &[char], start: usize, hashes: usize) -> usize {
    let mut i = start;
    while chars[i] != '"' {
        i += 1;
    }
    i += 1;
    while i < chars.len() {
        if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// The end of a character literal at `start`, or `None` for a lifetime.
fn char_literal_end(chars: &[char], start: usize) -> Option<usize> {
    match chars.get(start + 1) {
        Some('\\') => {
            let mut i = start + 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            Some(i + 1)
        }
        Some(_) if chars.get(start + 2) == Some(&'\'') => Some(start + 3),
        _ => None,
    }
}

/// A character that may be part of an identifier.
pub fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `code` (already blanked by [`blank_comments_and_literals`]) with every
/// item marked `#[cfg(test)]` or `#[test]` blanked as well: a test module,
/// a test-only function or import.
pub fn blank_test_items(code: &str) -> String {
    let mut chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while let Some(at) = find_test_attribute(&chars, i) {
        let end = item_end(&chars, at);
        for c in &mut chars[at..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = end;
    }
    chars.into_iter().collect()
}

fn find_test_attribute(chars: &[char], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 1 < chars.len() {
        if chars[i] == '#' && chars[i + 1] == '[' {
            let close = matching(chars, i + 1, '[', ']');
            let inside: String = chars[i + 2..close.saturating_sub(1)]
                .iter()
                .filter(|c| !c.is_whitespace())
                .collect();
            if inside == "test" || inside == "cfg(test)" {
                return Some(i);
            }
            i = close;
        } else {
            i += 1;
        }
    }
    None
}

/// The end of the item whose attributes start at `start`: past its `;`
/// or past the brace that closes its body, whichever comes first.
fn item_end(chars: &[char], start: usize) -> usize {
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            '#' if chars.get(i + 1) == Some(&'[') => i = matching(chars, i + 1, '[', ']'),
            ';' => return i + 1,
            '{' => return matching(chars, i, '{', '}'),
            _ => i += 1,
        }
    }
    i
}

/// The index past the bracket that closes the one at `open`.
pub fn matching(chars: &[char], open: usize, left: char, right: char) -> usize {
    let mut depth = 0usize;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        if c == left {
            depth += 1;
        } else if c == right {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    chars.len()
}

/// The shipped code of a source file: comments, literals and test items
/// blanked, lines kept.
pub fn shipped_code(text: &str) -> String {
    blank_test_items(&blank_comments_and_literals(text))
}
