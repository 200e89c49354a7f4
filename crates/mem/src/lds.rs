//! LDS bank conflicts: how many passes an LDS instruction needs for its lane addresses.
//!
//! The LDS is split into `banks` banks of `bank_bytes` bytes, a DWORD address `a` living in bank
//! `(a / bank_bytes) % banks`. The hardware checks a group of lanes at a time (GCN: each half of a
//! wave64, AMD's OpenCL optimization guide; RDNA: a wave32's 32 lanes per clock, as one CU's LDS
//! half serves); a lane of a 64- or 128-bit access touches 2 or 4 consecutive banks, so the group
//! shrinks to the lanes whose data fill the banks once (16 lanes of 64 bits, 8 of 128: a linear
//! `float2` or `float4` access is conflict-free). Within a group, each bank serves one DWORD
//! address per pass; lanes on the same address share it (broadcast). The group's *degree* is the
//! most distinct addresses any bank must serve; the instruction costs its conflict-free cost times
//! the mean degree of its groups.

/// A generation's bank layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BankLayout {
    /// Banks.
    pub banks: u32,
    /// Bytes per bank word.
    pub bank_bytes: u32,
    /// Lanes checked together for conflicts (for 32-bit accesses).
    pub group_lanes: u32,
}

/// The conflicts of one LDS instruction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BankConflicts {
    /// Mean degree over the lane groups with an active lane (1 = conflict-free).
    pub mean_degree: f64,
    /// The worst group's degree.
    pub max_degree: u32,
    /// Lanes per group used.
    pub group_lanes: u32,
}

impl BankLayout {
    /// The conflicts of one instruction: `addresses[lane]` for the `lanes` active lanes (lane
    /// order), each accessing `bytes_per_lane` bytes.
    pub fn conflicts(&self, addresses: &[u64], bytes_per_lane: u32) -> BankConflicts {
        let banks = self.banks.max(1);
        let bank_bytes = self.bank_bytes.max(1);
        let words_per_lane = bytes_per_lane.div_ceil(bank_bytes).max(1);
        // Lanes whose data cover the banks once.
        let group_lanes = self.group_lanes.min((banks / words_per_lane).max(1)).max(1);
        let mut sum = 0u64;
        let mut groups = 0u64;
        let mut worst = 0u32;
        let mut per_bank: Vec<Vec<u64>> = vec![Vec::new(); banks as usize];
        for chunk in addresses.chunks(group_lanes as usize) {
            for b in per_bank.iter_mut() {
                b.clear();
            }
            for &a in chunk {
                let first = a / u64::from(bank_bytes);
                for w in 0..u64::from(words_per_lane) {
                    let word = first.saturating_add(w);
                    let bank = (word % u64::from(banks)) as usize;
                    if !per_bank[bank].contains(&word) {
                        per_bank[bank].push(word);
                    }
                }
            }
            let degree = per_bank.iter().map(Vec::len).max().unwrap_or(0) as u32;
            if degree > 0 {
                sum += u64::from(degree);
                groups += 1;
                worst = worst.max(degree);
            }
        }
        BankConflicts {
            mean_degree: if groups == 0 {
                1.0
            } else {
                sum as f64 / groups as f64
            },
            max_degree: worst.max(1),
            group_lanes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GCN: BankLayout = BankLayout {
        banks: 32,
        bank_bytes: 4,
        group_lanes: 32,
    };

    fn lanes(f: impl Fn(u64) -> u64) -> Vec<u64> {
        (0..64).map(f).collect()
    }

    #[test]
    fn linear_dwords_are_conflict_free() {
        let c = GCN.conflicts(&lanes(|i| 4 * i), 4);
        assert_eq!((c.mean_degree, c.max_degree), (1.0, 1));
    }

    #[test]
    fn stride_128_bytes_is_32_way() {
        // Every lane of a half-wave on bank 0, each a different DWORD.
        let c = GCN.conflicts(&lanes(|i| 128 * i), 4);
        assert_eq!((c.mean_degree, c.max_degree), (32.0, 32));
    }

    #[test]
    fn a_shared_address_broadcasts() {
        let c = GCN.conflicts(&lanes(|_| 64), 4);
        assert_eq!(c.max_degree, 1);
    }

    #[test]
    fn stride_8_bytes_is_2_way_for_dwords() {
        // Lanes 0 and 16 of a half-wave share bank 0 with different DWORDs.
        let c = GCN.conflicts(&lanes(|i| 8 * i), 4);
        assert_eq!(c.max_degree, 2);
    }

    #[test]
    fn wide_linear_accesses_are_conflict_free() {
        // float2: 16 lanes x 2 banks; float4: 8 lanes x 4 banks.
        let c = GCN.conflicts(&lanes(|i| 8 * i), 8);
        assert_eq!((c.max_degree, c.group_lanes), (1, 16));
        let c = GCN.conflicts(&lanes(|i| 16 * i), 16);
        assert_eq!((c.max_degree, c.group_lanes), (1, 8));
    }
}
