//! Fuzz target `replay`: [`tilesmith_tests::fuzz::replay`] on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tilesmith_tests::fuzz::replay(data));
