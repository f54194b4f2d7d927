//! The lean bundle's wire types: without the other lock services there is nothing to send
//! them, so both are uninhabited and every path that would carry one compiles away.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SvcReq {}
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SvcAns {}

impl SvcReq {
    pub fn label(&self) -> String {
        match *self {}
    }
}
impl SvcAns {
    pub fn label(&self) -> String {
        match *self {}
    }
}
