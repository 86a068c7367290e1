//! The cancel layer: a cancelled run (`hl_engine_cancel`, closing the
//! engine) starts no further hook and returns `Cancelled`; hooks running
//! as processes are killed with their process group by the runner, which
//! watches the same token.

use crate::error::{Error, Result, Status};
use crate::runner::CancelToken;

/// The error of a cancelled run.
pub(crate) fn cancelled_error() -> Error {
    Error::new(Status::Cancelled, "the run was cancelled")
}

/// `Err(Cancelled)` once `token` is cancelled.
pub(crate) fn check(token: Option<&CancelToken>) -> Result<()> {
    if token.is_some_and(CancelToken::is_cancelled) {
        Err(cancelled_error())
    } else {
        Ok(())
    }
}
