//! Number vectors as one little-endian byte string. postcard writes a `Vec<f32>` a value at a
//! time: sending a million typed values took 8.6 ms of the page's thread per run in
//! `FloatInput::serialize` (a CPU profile of five runs), where a byte string is one copy.

use std::borrow::Cow;

/// A number that crosses as its little-endian bytes.
pub trait Number: bytemuck::Pod {
    /// The number with its bytes in the other order.
    fn swap_bytes(self) -> Self;
}

impl Number for f32 {
    fn swap_bytes(self) -> Self {
        f32::from_bits(self.to_bits().swap_bytes())
    }
}

impl Number for i32 {
    fn swap_bytes(self) -> Self {
        i32::swap_bytes(self)
    }
}

impl Number for i64 {
    fn swap_bytes(self) -> Self {
        i64::swap_bytes(self)
    }
}

/// `values` as little-endian bytes: the slice itself on a little-endian target (wasm32, x86,
/// arm), a copy elsewhere.
pub fn to_le_bytes<T: Number>(values: &[T]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        Cow::Borrowed(bytemuck::cast_slice(values))
    } else {
        let swapped: Vec<T> = values.iter().map(|&value| value.swap_bytes()).collect();
        Cow::Owned(bytemuck::cast_slice(&swapped).to_vec())
    }
}

/// The values of little-endian `bytes` (a trailing partial value is dropped).
pub fn from_le_bytes<T: Number>(bytes: &[u8]) -> Vec<T> {
    let whole = bytes.len() - bytes.len() % std::mem::size_of::<T>();
    let values: Vec<T> = bytemuck::pod_collect_to_vec(&bytes[..whole]);
    if cfg!(target_endian = "little") {
        values
    } else {
        values.into_iter().map(T::swap_bytes).collect()
    }
}

macro_rules! le_bytes {
    ($module:ident, $number:ty) => {
        #[doc = concat!("`", stringify!($number), "`s as their little-endian bytes (`#[serde(with = \"…\")]`), read back into a `Vec` or an `Arc<[", stringify!($number), "]>`.")]
        pub mod $module {
            use serde::{Deserialize, Deserializer, Serializer};

            const WIDTH: usize = std::mem::size_of::<$number>();

            pub fn serialize<S: Serializer>(
                values: &[$number],
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                serializer.serialize_bytes(&super::to_le_bytes(values))
            }

            pub fn deserialize<'de, D: Deserializer<'de>, C: From<Vec<$number>>>(
                deserializer: D,
            ) -> Result<C, D::Error> {
                let bytes = serde_bytes::ByteBuf::deserialize(deserializer)?;
                if bytes.len() % WIDTH != 0 {
                    return Err(serde::de::Error::custom(format!(
                        "{} bytes are not a whole number of {}s",
                        bytes.len(),
                        stringify!($number)
                    )));
                }
                Ok(super::from_le_bytes(&bytes).into())
            }
        }
    };
}

le_bytes!(f32s, f32);
le_bytes!(i32s, i32);

/// Shared bytes as one byte string (`#[serde(with = "…")]`): cloned by the page without a copy.
pub mod shared {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Arc<[u8]>, D::Error> {
        Ok(serde_bytes::ByteBuf::deserialize(deserializer)?
            .into_vec()
            .into())
    }
}
