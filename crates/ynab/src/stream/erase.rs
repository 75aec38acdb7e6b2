//! Wrappers that pass serde's calls from a deserialiser of one lifetime to visitors and seeds of
//! another. Nothing borrowed crosses: a borrowed string or byte string is handed on as a
//! transient one, which owned types copy (as they would from any reader).

use serde::de;
use std::marker::PhantomData;

/// A visitor for `'de` seen as one for any `'b`.
pub struct Visitor<'de, V>(V, PhantomData<&'de ()>);

impl<V> Visitor<'_, V> {
    pub fn new(visitor: V) -> Self {
        Self(visitor, PhantomData)
    }
}

/// A deserialiser for `'b` seen as one for any `'de`.
pub struct Deserializer<'b, D>(D, PhantomData<&'b ()>);

impl<D> Deserializer<'_, D> {
    pub fn new(deserializer: D) -> Self {
        Self(deserializer, PhantomData)
    }
}

struct Seed<'de, S>(S, PhantomData<&'de ()>);
struct Seq<'b, A>(A, PhantomData<&'b ()>);
struct Map<'b, A>(A, PhantomData<&'b ()>);
struct Enum<'b, A>(A, PhantomData<&'b ()>);
struct Variant<'b, A>(A, PhantomData<&'b ()>);

macro_rules! visit_forward {
    ($($method:ident($ty:ty))*) => {
        $(
            fn $method<E: de::Error>(self, value: $ty) -> Result<Self::Value, E> {
                self.0.$method(value)
            }
        )*
    };
}

impl<'b, 'de, V: de::Visitor<'de>> de::Visitor<'b> for Visitor<'de, V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.0.expecting(formatter)
    }

    visit_forward! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
        visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
        visit_u128(u128) visit_f32(f32) visit_f64(f64) visit_char(char)
        visit_str(&str) visit_string(String) visit_bytes(&[u8]) visit_byte_buf(Vec<u8>)
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'b str) -> Result<Self::Value, E> {
        self.0.visit_str(value)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, value: &'b [u8]) -> Result<Self::Value, E> {
        self.0.visit_bytes(value)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: de::Deserializer<'b>>(self, value: D) -> Result<Self::Value, D::Error> {
        self.0.visit_some(Deserializer::new(value))
    }

    fn visit_newtype_struct<D: de::Deserializer<'b>>(
        self,
        value: D,
    ) -> Result<Self::Value, D::Error> {
        self.0.visit_newtype_struct(Deserializer::new(value))
    }

    fn visit_seq<A: de::SeqAccess<'b>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.0.visit_seq(Seq(seq, PhantomData))
    }

    fn visit_map<A: de::MapAccess<'b>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(Map(map, PhantomData))
    }

    fn visit_enum<A: de::EnumAccess<'b>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.0.visit_enum(Enum(data, PhantomData))
    }
}

macro_rules! deserialize_forward {
    ($($method:ident)*) => {
        $(
            fn $method<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method(Visitor::new(visitor))
            }
        )*
    };
}

impl<'b, 'de, D: de::Deserializer<'b>> de::Deserializer<'de> for Deserializer<'b, D> {
    type Error = D::Error;

    deserialize_forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: de::Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Visitor::new(visitor))
    }

    fn deserialize_newtype_struct<V: de::Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_newtype_struct(name, Visitor::new(visitor))
    }

    fn deserialize_tuple<V: de::Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Visitor::new(visitor))
    }

    fn deserialize_tuple_struct<V: de::Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_tuple_struct(name, len, Visitor::new(visitor))
    }

    fn deserialize_struct<V: de::Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_struct(name, fields, Visitor::new(visitor))
    }

    fn deserialize_enum<V: de::Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_enum(name, variants, Visitor::new(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

impl<'b, 'de, S: de::DeserializeSeed<'de>> de::DeserializeSeed<'b> for Seed<'de, S> {
    type Value = S::Value;

    fn deserialize<D: de::Deserializer<'b>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        self.0.deserialize(Deserializer::new(deserializer))
    }
}

impl<'b, 'de, A: de::SeqAccess<'b>> de::SeqAccess<'de> for Seq<'b, A> {
    type Error = A::Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed, PhantomData))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'b, 'de, A: de::MapAccess<'b>> de::MapAccess<'de> for Map<'b, A> {
    type Error = A::Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed, PhantomData))
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Seed(seed, PhantomData))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'b, 'de, A: de::EnumAccess<'b>> de::EnumAccess<'de> for Enum<'b, A> {
    type Error = A::Error;
    type Variant = Variant<'b, A::Variant>;

    fn variant_seed<V: de::DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(Seed(seed, PhantomData))?;
        Ok((value, Variant(variant, PhantomData)))
    }
}

impl<'b, 'de, A: de::VariantAccess<'b>> de::VariantAccess<'de> for Variant<'b, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed, PhantomData))
    }

    fn tuple_variant<V: de::Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Visitor::new(visitor))
    }

    fn struct_variant<V: de::Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Visitor::new(visitor))
    }
}
