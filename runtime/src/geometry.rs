//! Small vector types for transforms.

use serde::{Deserialize, Serialize};

use crate::fixed::{Fixed, FixedRangeError, FixedRaw};

/// A rotation quaternion, components in file order x, y, z, w. T is f32 or a Fixed.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Quat<T> {
    /// The i component.
    pub x: T,
    /// The j component.
    pub y: T,
    /// The k component.
    pub z: T,
    /// The scalar component.
    pub w: T,
}

/// A 3-vector (translation, scale).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Vec3<T> {
    /// The x component.
    pub x: T,
    /// The y component.
    pub y: T,
    /// The z component.
    pub z: T,
}

impl Quat<f32> {
    /// The inverse rotation for a unit quaternion.
    pub fn conjugate(self) -> Self {
        Quat {
            x: -self.x,
            y: -self.y,
            z: -self.z,
            w: self.w,
        }
    }

    /// The Euclidean length.
    pub fn norm(self) -> f32 {
        (self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w).sqrt()
    }

    /// Scaled to unit length; the identity when the norm is 0 or not finite.
    pub fn normalized(self) -> Self {
        let n = self.norm();
        if n > 0.0 && n.is_finite() {
            Quat {
                x: self.x / n,
                y: self.y / n,
                z: self.z / n,
                w: self.w / n,
            }
        } else {
            Self::identity()
        }
    }

    /// The rotation that does nothing.
    pub fn identity() -> Self {
        Quat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        }
    }
}

impl<T: FixedRaw, const D: u32> Quat<Fixed<T, D>> {
    /// Decodes every component.
    pub fn to_f32(self) -> Quat<f32> {
        Quat {
            x: self.x.get(),
            y: self.y.get(),
            z: self.z.get(),
            w: self.w.get(),
        }
    }

    /// Encodes every component, failing on the first that does not fit.
    pub fn try_from_f32(q: Quat<f32>) -> Result<Self, FixedRangeError> {
        Ok(Quat {
            x: Fixed::try_from_f32(q.x)?,
            y: Fixed::try_from_f32(q.y)?,
            z: Fixed::try_from_f32(q.z)?,
            w: Fixed::try_from_f32(q.w)?,
        })
    }
}

impl<T: FixedRaw, const D: u32> Vec3<Fixed<T, D>> {
    /// Decodes every component.
    pub fn to_f32(self) -> Vec3<f32> {
        Vec3 {
            x: self.x.get(),
            y: self.y.get(),
            z: self.z.get(),
        }
    }

    /// Encodes every component, failing on the first that does not fit.
    pub fn try_from_f32(v: Vec3<f32>) -> Result<Self, FixedRangeError> {
        Ok(Vec3 {
            x: Fixed::try_from_f32(v.x)?,
            y: Fixed::try_from_f32(v.y)?,
            z: Fixed::try_from_f32(v.z)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quaternion_helpers() {
        let q = Quat {
            x: 0.0,
            y: 3.0,
            z: 0.0,
            w: 4.0,
        };
        assert_eq!(q.norm(), 5.0);
        assert_eq!(
            q.normalized(),
            Quat {
                x: 0.0,
                y: 0.6,
                z: 0.0,
                w: 0.8
            }
        );
        assert_eq!(q.conjugate().y, -3.0);
        assert_eq!(Quat::<f32>::default().normalized(), Quat::identity());
    }

    #[test]
    fn fixed_quat_round_trip() {
        let q = Quat {
            x: Fixed::<i16, 4096>(-4096),
            y: Fixed(2048),
            z: Fixed(1),
            w: Fixed(4095),
        };
        let f = q.to_f32();
        assert_eq!(f.x, -1.0);
        assert_eq!(f.y, 0.5);
        assert_eq!(Quat::<Fixed<i16, 4096>>::try_from_f32(f), Ok(q));
        let too_big = Quat { w: 9.0, ..f };
        assert!(Quat::<Fixed<i16, 4096>>::try_from_f32(too_big).is_err());
    }

    #[test]
    fn fixed_vec3_round_trip() {
        let v = Vec3 {
            x: Fixed::<i16, 60>(-61),
            y: Fixed(0),
            z: Fixed(32767),
        };
        assert_eq!(Vec3::<Fixed<i16, 60>>::try_from_f32(v.to_f32()), Ok(v));
        assert_eq!(
            serde_json::to_string(&Vec3 {
                x: Fixed::<u8, 2>(3),
                y: Fixed(0),
                z: Fixed(1)
            })
            .unwrap(),
            r#"{"x":1.5,"y":0.0,"z":0.5}"#
        );
    }
}
