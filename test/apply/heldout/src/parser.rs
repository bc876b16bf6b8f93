use std::collections::HashMap;
use std::fmt;

const KEYWORDS: [&str; 4] = ["let", "fn", "if", "else"];

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Ident(String),
    Number(i64),
    Plus,
    Minus,
    Eof,
}

pub struct Lexer {
    chars: Vec<char>,
    pos: usize,
}

impl Lexer {
    pub fn new(src: &str) -> Self {
        Lexer { chars: src.chars().collect(), pos: 0 }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub fn next_token(&mut self) -> Token {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.pos += 1;
            } else {
                break;
            }
        }
        match self.peek() {
            Some('+') => {
                self.pos += 1;
                Token::Plus
            }
            Some('-') => {
                self.pos += 1;
                Token::Minus
            }
            Some(c) if c.is_ascii_digit() => self.number(),
            Some(_) => self.ident(),
            None => Token::Eof,
        }
    }

    fn number(&mut self) -> Token {
        let start = self.pos;
        while self.peek().map_or(false, |c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        Token::Number(text.parse().unwrap())
    }

    fn ident(&mut self) -> Token {
        let start = self.pos;
        while self.peek().map_or(false, |c| c.is_alphanumeric()) {
            self.pos += 1;
        }
        Token::Ident(self.chars[start..self.pos].iter().collect())
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Token::Ident(s) => write!(f, "{}", s),
            Token::Number(n) => write!(f, "{}", n),
            Token::Plus => write!(f, "+"),
            Token::Minus => write!(f, "-"),
            Token::Eof => write!(f, "<eof>"),
        }
    }
}

pub fn count_tokens(src: &str) -> HashMap<String, usize> {
    let mut lexer = Lexer::new(src);
    let mut counts = HashMap::new();
    loop {
        let tok = lexer.next_token();
        if tok == Token::Eof {
            break;
        }
        *counts.entry(tok.to_string()).or_insert(0) += 1;
    }
    counts
}
