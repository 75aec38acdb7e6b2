//! The names of the reference's 33 tools (`server.md` §3.2): 19 that read and 14 that write.
//! Tests and texts check against them that nothing names a tool the build does not list.

/// The 14 write tools of `server.md` §3.2, whether or not this build has them yet.
pub const WRITE_TOOLS: [&str; 14] = [
    "apply_categories",
    "split_transaction",
    "set_category_budget",
    "move_money",
    "create_category",
    "update_category",
    "set_category_target",
    "create_transactions",
    "reconcile_account",
    "flag_transactions",
    "rename_payee",
    "undo_operation",
    "approve_transactions",
    "import_transactions",
];

/// The 19 read tools of `server.md` §3.2, whether or not this build has them yet.
pub const READ_TOOLS: [&str; 19] = [
    "list_plans",
    "list_accounts",
    "list_category_groups",
    "get_monthly_summary",
    "get_category_balances",
    "get_budget_vs_actual",
    "get_spending_trends",
    "find_transactions",
    "list_scheduled_transactions",
    "suggest_categories",
    "forecast_balance",
    "find_recurring_charges",
    "get_net_worth_trend",
    "get_runway",
    "get_savings_rate",
    "get_underfunded_targets",
    "get_debt_payoff_plan",
    "get_age_of_money",
    "list_payees",
];
