//! Xiangqi on its 9×10 board, under the Asian competition rules.
