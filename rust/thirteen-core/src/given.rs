//! An integer argument as a caller gave it, before any check.

use std::fmt;

/// An integer as given: its value when it fits in 64 bits, else its text (a Python ``int``
/// has any size). The bounds of [`crate::limits`] check it ([`crate::limits::Limit::given`]),
/// refusing one beyond 64 bits by name, as any other out of range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Given {
    /// A value that fits in `i64`.
    Int(i64),
    /// An integer beyond 64 bits, as written (`"-123456789012345678901234567890"`).
    Beyond(String),
}

impl From<i64> for Given {
    fn from(value: i64) -> Given {
        Given::Int(value)
    }
}

impl fmt::Display for Given {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Given::Int(v) => write!(f, "{v}"),
            Given::Beyond(text) => f.write_str(text),
        }
    }
}

/// Plain data as a caller gave it, read without interpretation (a Python value: the bindings
/// copy its shape, the core says what it must be). What the core reads this way: lane counts
/// ([`crate::LaneCounts::from_plain`], [`crate::IterationCounts::from_plain`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plain {
    /// An integer (not a `bool`).
    Int(Given),
    /// A list.
    List(Vec<Plain>),
    /// A tuple.
    Tuple(Vec<Plain>),
    /// A mapping, its keys as text (a key that is not text: as Python writes it).
    Map(Vec<(String, Plain)>),
    /// Anything else: the name of its type.
    Other(String),
}

impl Plain {
    /// The name of the value's type, for messages.
    pub fn kind(&self) -> &str {
        match self {
            Plain::Int(_) => "int",
            Plain::List(_) => "list",
            Plain::Tuple(_) => "tuple",
            Plain::Map(_) => "dict",
            Plain::Other(name) => name,
        }
    }

    /// The items of a list or a tuple.
    pub fn items(&self) -> Option<&[Plain]> {
        match self {
            Plain::List(items) | Plain::Tuple(items) => Some(items),
            _ => None,
        }
    }

    /// The value under `key` of a mapping.
    pub fn get(&self, key: &str) -> Option<&Plain> {
        match self {
            Plain::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}
