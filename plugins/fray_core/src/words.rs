//! A number of things in English words for every screen and message: "1 decision",
//! "2 decisions", never "decision(s)".

/// `n` with its noun in the right number: `count(1, "bid", "bids")` is "1 bid".
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_takes_the_singular_and_any_other_number_the_plural() {
        assert_eq!(count(1, "decision", "decisions"), "1 decision");
        assert_eq!(count(0, "decision", "decisions"), "0 decisions");
        assert_eq!(count(6, "bid", "bids"), "6 bids");
    }
}
