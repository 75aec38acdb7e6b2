//! The integration tests of this crate, one binary: the server's behaviour through the MCP protocol
//! (and the tidy checks). Each module is one file of `tests/`; a new test file is one more `mod`
//! line here.

mod answer_sizes;
mod apply_budget_plan_tool;
mod category_tools;
mod chart_tools;
mod common;
mod confirm;
mod confirm_policy;
mod create_account_tool;
mod debt_tools;
mod delete_tool;
mod derived_state;
mod disk_cache;
mod edit_split_tool;
mod fault_matrix;
mod forecast_tools;
mod fuzz;
mod import_tool;
mod journal;
mod journal_golden;
mod layers;
mod link_transfer_tool;
mod mcp_app;
mod merge_categories_tool;
mod merge_payees_tool;
mod output_schemas;
mod payee_flag_tools;
mod plan_cache;
mod plan_choice;
mod progress;
mod protocol;
mod read_tools;
mod reconcile_split_target_tools;
mod scheduled_tools;
mod search_tools;
mod statement_tools;
mod targets_tools;
mod tool_surface;
mod toolsets;
mod transaction_tools;
mod update_transactions_tool;
mod wealth_tools;
mod worked_examples;
