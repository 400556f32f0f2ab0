//! The strategies that arrange a hand (代打, hints): the lane tables and the `ev` model that
//! prices a split, its exact search, the greedy baseline, Monte Carlo, 16 dealt and hands
//! finished with cards placed, one entry for them all ([`solve`]), and training the tables
//! by self-play.

pub mod ev;
pub mod gift;
pub mod gift_model;
pub mod greedy;
pub mod keep;
pub mod lane_counts;
pub mod lanes;
pub mod mc;
pub mod model;
pub mod packed;
pub mod removal;
pub mod search;
pub mod solve;
pub mod surrender;
pub mod train;
