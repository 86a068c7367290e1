//! One name table per enum of the C ABI (statuses, events, hook points):
//! [`enum_names!`] turns a single list of `variant => "name"` pairs into a
//! `&str` accessor for Rust and a NUL-terminated `&CStr` accessor for the C
//! functions that hand the names out (`hl_status_name`, `hl_event_name`,
//! `hl_point_name`), so no second table can drift from the first.

/// `enum_names!(/// doc\n Type, name_fn, c_name_fn, { Variant => "name", ... })`
/// implements `Type::name_fn(self) -> &'static str` and
/// `Type::c_name_fn(self) -> &'static CStr` from one list.
macro_rules! enum_names {
    ($(#[$doc:meta])* $ty:ident, $name_fn:ident, $c_name_fn:ident, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            $(#[$doc])*
            pub const fn $name_fn(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }

            #[doc = concat!("[`", stringify!($name_fn), "`](Self::", stringify!($name_fn), ") as a NUL-terminated C string (static).")]
            pub const fn $c_name_fn(self) -> &'static std::ffi::CStr {
                match self {
                    $($ty::$variant => const {
                        match std::ffi::CStr::from_bytes_with_nul(concat!($name, "\0").as_bytes()) {
                            Ok(c) => c,
                            Err(_) => panic!("a name must not contain NUL"),
                        }
                    }),+
                }
            }
        }
    };
}
