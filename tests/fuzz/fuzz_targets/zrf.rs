//! Fuzz target `zrf`: [`tilesmith_tests::fuzz::zrf`] on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tilesmith_tests::fuzz::zrf(data));
