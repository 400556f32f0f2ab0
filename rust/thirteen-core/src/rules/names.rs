//! The names serde knows for a type (a unit enum's variants, a struct's fields), read from the
//! type itself: the rule-set schema's table of allowed values is made of them.

use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};

/// The names serde knows for `T`: a unit enum's variants or a struct's fields, in declaration
/// order, as `rename_all` writes them (read by deserialising `T` from a probe that only
/// answers with those names).
pub fn variants<T: DeserializeOwned>() -> &'static [&'static str] {
    match T::deserialize(Probe) {
        Err(Names(names)) => names,
        Ok(_) => &[],
    }
}

struct Probe;

#[derive(Debug)]
struct Names(&'static [&'static str]);

impl fmt::Display for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl std::error::Error for Names {}

impl de::Error for Names {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Names(&[])
    }
}

impl<'de> Deserializer<'de> for Probe {
    type Error = Names;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> std::result::Result<V::Value, Names> {
        Err(Names(&[]))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> std::result::Result<V::Value, Names> {
        Err(Names(variants))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> std::result::Result<V::Value, Names> {
        Err(Names(fields))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map identifier
        ignored_any
    }
}
