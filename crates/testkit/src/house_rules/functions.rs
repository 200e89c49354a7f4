//! Function lengths: every `fn` with a body in shipped code, from the line
//! of its `fn` to the line of its closing brace.

use super::lexer::{is_word, matching, shipped_code};

/// One function and its length in lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionSpan {
    /// The function's name.
    pub name: String,
    /// The line of its `fn` keyword (1-based).
    pub line: usize,
    /// Lines from the `fn` line to the closing brace, both included.
    pub lines: usize,
}

/// The functions of a source file's shipped code (test items left out),
/// nested ones included, in source order.
pub fn function_spans(text: &str) -> Vec<FunctionSpan> {
    let code: Vec<char> = shipped_code(text).chars().collect();
    let line_of = line_starts(&code);
    let mut spans = Vec::new();
    let mut i = 0;
    while let Some(at) = next_fn_keyword(&code, i) {
        i = at + 2;
        let Some((name, after_name)) = identifier_after(&code, at + 2) else {
            // `fn(` is a function pointer type, not a definition.
            continue;
        };
        let Some(open) = body_start(&code, after_name) else {
            continue;
        };
        let close = matching(&code, open, '{', '}');
        let first = line_of(at);
        let last = line_of(close.saturating_sub(1));
        spans.push(FunctionSpan {
            name,
            line: first,
            lines: last - first + 1,
        });
    }
    spans
}

/// A function from a character index to its 1-based line.
fn line_starts(code: &[char]) -> impl Fn(usize) -> usize {
    let newlines: Vec<usize> = code
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == '\n')
        .map(|(i, _)| i)
        .collect();
    move |index| newlines.partition_point(|&n| n < index) + 1
}

fn next_fn_keyword(code: &[char], from: usize) -> Option<usize> {
    (from..code.len().saturating_sub(2)).find(|&i| {
        code[i] == 'f'
            && code[i + 1] == 'n'
            && !code[i + 2].is_alphanumeric()
            && code[i + 2] != '_'
            && (i == 0 || !is_word(code[i - 1]))
    })
}

/// The identifier after `from` (whitespace skipped) and the index past it.
fn identifier_after(code: &[char], from: usize) -> Option<(String, usize)> {
    let mut i = from;
    while i < code.len() && code[i].is_whitespace() {
        i += 1;
    }
    let start = i;
    while i < code.len() && is_word(code[i]) {
        i += 1;
    }
    (i > start).then(|| (code[start..i].iter().collect(), i))
}

/// The `{` that opens the body of the function whose signature continues
/// at `from`, or `None` for a declaration ending in `;` (a trait's).
fn body_start(code: &[char], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &c) in code.iter().enumerate().skip(from) {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' => depth -= 1,
            // `->` is no closing angle bracket.
            '>' if i > 0 && code[i - 1] != '-' => depth -= 1,
            '{' if depth <= 0 => return Some(i),
            ';' if depth <= 0 => return None,
            _ => {}
        }
    }
    None
}
