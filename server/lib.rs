//! Tavoliere: the play server.
