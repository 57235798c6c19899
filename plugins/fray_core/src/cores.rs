//! Work spread over the cores where there is enough of it: the rules' lists of choices on a
//! big board, the seats' views. Below a few dozen items handing the work to other threads
//! costs more than it saves, so short lists stay on the calling thread.

use rayon::prelude::*;

/// How many items a list needs before its work is spread.
pub const SPREAD_FROM: usize = 48;

/// `f` applied to every item, in order: on every core when the list is long.
pub fn map<T: Send, U: Send>(items: Vec<T>, f: impl Fn(T) -> U + Sync + Send) -> Vec<U> {
    if items.len() < SPREAD_FROM {
        items.into_iter().map(f).collect()
    } else {
        items.into_par_iter().map(f).collect()
    }
}

/// `f` done for every item: on every core when the list is long.
pub fn for_each<T: Sync>(items: &[T], f: impl Fn(&T) + Sync + Send) {
    if items.len() < SPREAD_FROM {
        items.iter().for_each(f);
    } else {
        items.par_iter().for_each(f);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_the_order_short_or_long() {
        for n in [0, 3, super::SPREAD_FROM, 1000] {
            let items: Vec<usize> = (0..n).collect();
            assert_eq!(super::map(items, |i| i * 2), (0..n).map(|i| i * 2).collect::<Vec<_>>());
        }
    }
}
