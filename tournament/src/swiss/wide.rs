//! Fixed-width unsigned integers for the matching's edge weights.
//!
//! The Dutch system's criteria are packed into one edge weight, most important first, so
//! that a maximum-weight matching meets them in their order of priority (C.04.3 C.5-C.21 for
//! the 2025 edition). A 500-player round needs several hundred bits; the width is chosen per
//! round (`N` limbs of 64 bits) and the arithmetic wraps at that width, as the
//! weights are built with borrows that cancel out (see `dutch.rs`).

// Limb loops walk two or three arrays in step, by index.
#![allow(clippy::needless_range_loop)]

use std::cmp::Ordering;

/// An unsigned integer of `N` 64-bit limbs, least significant first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Wide<const N: usize>(pub(crate) [u64; N]);

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for limb in self.0.iter().rev() {
            write!(f, "{limb:016x}")?;
        }
        Ok(())
    }
}

impl<const N: usize> Wide<N> {
    pub(crate) const ZERO: Wide<N> = Wide([0; N]);

    pub(crate) fn from_u64(value: u64) -> Wide<N> {
        let mut limbs = [0; N];
        limbs[0] = value;
        Wide(limbs)
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `1 << bit`.
    pub(crate) fn bit(bit: u32) -> Wide<N> {
        let mut limbs = [0; N];
        let (limb, offset) = ((bit / 64) as usize, bit % 64);
        if limb < N {
            limbs[limb] = 1 << offset;
        }
        Wide(limbs)
    }

    /// `self << bits`, the bits shifted past the width lost.
    #[must_use]
    pub(crate) fn shl(&self, bits: u32) -> Wide<N> {
        let (limbs, offset) = ((bits / 64) as usize, bits % 64);
        let mut out = [0; N];
        for i in (limbs..N).rev() {
            let source = i - limbs;
            out[i] = self.0[source] << offset;
            if offset > 0 && source > 0 {
                out[i] |= self.0[source - 1] >> (64 - offset);
            }
        }
        Wide(out)
    }

    /// `self >> 1`.
    #[must_use]
    pub(crate) fn half(&self) -> Wide<N> {
        let mut out = [0; N];
        for i in 0..N {
            out[i] = self.0[i] >> 1;
            if i + 1 < N {
                out[i] |= self.0[i + 1] << 63;
            }
        }
        Wide(out)
    }

    #[must_use]
    pub(crate) fn wrapping_add(&self, other: &Wide<N>) -> Wide<N> {
        let mut out = [0; N];
        let mut carry = false;
        for i in 0..N {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            out[i] = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }

    #[must_use]
    pub(crate) fn wrapping_sub(&self, other: &Wide<N>) -> Wide<N> {
        let mut out = [0; N];
        let mut borrow = false;
        for i in 0..N {
            let (difference, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (difference, b2) = difference.overflowing_sub(u64::from(borrow));
            out[i] = difference;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    #[must_use]
    pub(crate) fn add_u64(&self, value: u64) -> Wide<N> {
        self.wrapping_add(&Wide::from_u64(value))
    }

    #[must_use]
    pub(crate) fn sub_u64(&self, value: u64) -> Wide<N> {
        self.wrapping_sub(&Wide::from_u64(value))
    }

    #[must_use]
    pub(crate) fn or_u64(&self, value: u64) -> Wide<N> {
        let mut out = *self;
        out.0[0] |= value;
        out
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Wide<N>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Wide<N>) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::Wide;

    #[test]
    fn shifts_carries_and_borrows_cross_limbs() {
        let one = Wide::<3>::from_u64(1);
        assert_eq!(one.shl(64).0, [0, 1, 0]);
        assert_eq!(one.shl(130).0, [0, 0, 4]);
        assert_eq!(one.shl(192), Wide::ZERO, "shifted out");
        let max = Wide::<2>([u64::MAX, 0]);
        assert_eq!(max.add_u64(1).0, [0, 1]);
        assert_eq!(Wide::<2>([0, 1]).sub_u64(1).0, [u64::MAX, 0]);
        assert_eq!(Wide::<2>::ZERO.sub_u64(1).add_u64(1), Wide::ZERO, "wraps at the width");
        assert_eq!(Wide::<2>([0, 3]).half().0, [1 << 63, 1]);
        assert!(Wide::<2>([0, 1]) > Wide::<2>([u64::MAX, 0]));
        assert_eq!(Wide::<2>::bit(70).0, [0, 64]);
    }
}
