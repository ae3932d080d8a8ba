//! Reading an enum whose variant name decides how the rest is read: the name is
//! read first ([`Ident`]), then the derived code of the enum that has that variant
//! reads the rest ([`Replay`]). Scenarios use it to send any name that is not a core
//! command to the ruleset's verbs; battle files to read commands of an older format.

use serde::de::{self, DeserializeSeed, EnumAccess, VariantAccess, Visitor};

/// An identifier (ron reads a variant's name with `deserialize_identifier`).
pub struct Ident(pub String);

impl<'de> de::Deserialize<'de> for Ident {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Ident;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a command name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Ident, E> {
                Ok(Ident(v.to_string()))
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A deserializer that hands the derived enum code the variant name already
/// read, and the rest of the variant.
pub struct Replay<A> {
    /// The variant's name, as read.
    pub name: String,
    /// The rest of the variant.
    pub variant: A,
}

impl<'de, A: VariantAccess<'de>> de::Deserializer<'de> for Replay<A> {
    type Error = A::Error;

    fn deserialize_any<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: VariantAccess<'de>> EnumAccess<'de> for Replay<A> {
    type Error = A::Error;
    type Variant = A;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, A), A::Error> {
        use serde::de::IntoDeserializer;
        let name: de::value::StringDeserializer<A::Error> = self.name.into_deserializer();
        Ok((seed.deserialize(name)?, self.variant))
    }
}
