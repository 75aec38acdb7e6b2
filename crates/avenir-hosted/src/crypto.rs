//! YNAB tokens sealed at rest: AES-GCM under the server key.
