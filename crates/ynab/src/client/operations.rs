//! YNAB's operations, typed: each read or change is one request through
//! [`Client::request`](super::Client::request) with its path, query and body, and its answer's
//! `data` read into the model it names.

use super::Client;
use crate::error::Error;
use crate::models::*;
use crate::writes::*;
use reqwest::Method;
use serde::Deserialize;

impl Client {
    /// `GET /plans`: the plans the token can read.
    pub async fn plans(&self) -> Result<Vec<PlanSummary>, Error> {
        #[derive(Deserialize)]
        struct Data {
            plans: Vec<PlanSummary>,
        }
        let data: Data = self.get(&["plans"], &[]).await?;
        Ok(data.plans)
    }

    /// `GET /plans/{plan_id}`: the full plan export, or its delta after `last_knowledge`.
    pub async fn plan(
        &self,
        plan_id: &str,
        last_knowledge: Option<i64>,
    ) -> Result<(PlanDetail, i64), Error> {
        #[derive(Deserialize)]
        struct Data {
            plan: PlanDetail,
            server_knowledge: i64,
        }
        let query = knowledge_query(last_knowledge);
        let data: Data = self.get(&["plans", plan_id], &query).await?;
        Ok((data.plan, data.server_knowledge))
    }

    /// `GET /plans/{plan_id}/settings`: the date and currency formats.
    pub async fn plan_settings(&self, plan_id: &str) -> Result<PlanSettings, Error> {
        #[derive(Deserialize)]
        struct Data {
            settings: PlanSettings,
        }
        let data: Data = self.get(&["plans", plan_id, "settings"], &[]).await?;
        Ok(data.settings)
    }

    /// `GET /plans/{plan_id}/accounts`.
    pub async fn accounts(&self, plan_id: &str) -> Result<Vec<Account>, Error> {
        #[derive(Deserialize)]
        struct Data {
            accounts: Vec<Account>,
        }
        let data: Data = self.get(&["plans", plan_id, "accounts"], &[]).await?;
        Ok(data.accounts)
    }

    /// `GET /plans/{plan_id}/categories`: groups with their categories (current month's figures).
    pub async fn categories(
        &self,
        plan_id: &str,
    ) -> Result<Vec<CategoryGroupWithCategories>, Error> {
        #[derive(Deserialize)]
        struct Data {
            category_groups: Vec<CategoryGroupWithCategories>,
        }
        let data: Data = self.get(&["plans", plan_id, "categories"], &[]).await?;
        Ok(data.category_groups)
    }

    /// `GET /plans/{plan_id}/payees`.
    pub async fn payees(&self, plan_id: &str) -> Result<Vec<Payee>, Error> {
        #[derive(Deserialize)]
        struct Data {
            payees: Vec<Payee>,
        }
        let data: Data = self.get(&["plans", plan_id, "payees"], &[]).await?;
        Ok(data.payees)
    }

    /// `GET /plans/{plan_id}/transactions`, with YNAB's filters.
    pub async fn transactions(
        &self,
        plan_id: &str,
        filter: &TransactionFilter,
    ) -> Result<(Vec<Transaction>, i64), Error> {
        #[derive(Deserialize)]
        struct Data {
            transactions: Vec<Transaction>,
            #[serde(default)]
            server_knowledge: i64,
        }
        let mut query = knowledge_query(filter.last_knowledge);
        if let Some(since) = &filter.since_date {
            query.push(("since_date", since.clone()));
        }
        if let Some(kind) = &filter.kind {
            query.push(("type", kind.clone()));
        }
        let data: Data = self
            .get(&["plans", plan_id, "transactions"], &query)
            .await?;
        Ok((data.transactions, data.server_knowledge))
    }

    /// `GET /plans/{plan_id}/scheduled_transactions`.
    pub async fn scheduled_transactions(
        &self,
        plan_id: &str,
    ) -> Result<Vec<ScheduledTransaction>, Error> {
        #[derive(Deserialize)]
        struct Data {
            scheduled_transactions: Vec<ScheduledTransaction>,
        }
        let data: Data = self
            .get(&["plans", plan_id, "scheduled_transactions"], &[])
            .await?;
        Ok(data.scheduled_transactions)
    }

    /// `GET /plans/{plan_id}/scheduled_transactions?last_knowledge_of_server=…`: the schedules
    /// changed since `knowledge`, deleted ones included (tombstones), and the knowledge now.
    pub async fn scheduled_transactions_since(
        &self,
        plan_id: &str,
        knowledge: i64,
    ) -> Result<(Vec<ScheduledTransaction>, i64), Error> {
        #[derive(Deserialize)]
        struct Data {
            scheduled_transactions: Vec<ScheduledTransaction>,
            #[serde(default)]
            server_knowledge: i64,
        }
        let query = knowledge_query(Some(knowledge));
        let data: Data = self
            .get(&["plans", plan_id, "scheduled_transactions"], &query)
            .await?;
        Ok((data.scheduled_transactions, data.server_knowledge))
    }

    /// `GET /plans/{plan_id}/months`: every month's totals (no categories).
    pub async fn months(&self, plan_id: &str) -> Result<Vec<Month>, Error> {
        #[derive(Deserialize)]
        struct Data {
            months: Vec<Month>,
        }
        let data: Data = self.get(&["plans", plan_id, "months"], &[]).await?;
        Ok(data.months)
    }

    /// `GET /plans/{plan_id}/months/{month}`: one month with its categories.
    pub async fn month(&self, plan_id: &str, month: &str) -> Result<Month, Error> {
        #[derive(Deserialize)]
        struct Data {
            month: Month,
        }
        let data: Data = self.get(&["plans", plan_id, "months", month], &[]).await?;
        Ok(data.month)
    }

    // ---- writes -------------------------------------------------------------------------------

    /// `PATCH /plans/{plan_id}/months/{month}/categories/{category_id}`: set the assigned amount.
    pub async fn set_assigned(
        &self,
        plan_id: &str,
        month: &str,
        category_id: &str,
        budgeted: Milliunits,
    ) -> Result<SavedCategory, Error> {
        let body = serde_json::json!({"category": {"budgeted": budgeted}});
        self.request(
            Method::PATCH,
            &["plans", plan_id, "months", month, "categories", category_id],
            &[],
            Some(&body),
        )
        .await
    }

    /// `POST /plans/{plan_id}/categories`: create a category.
    pub async fn create_category(
        &self,
        plan_id: &str,
        category: &CategoryChange,
    ) -> Result<SavedCategory, Error> {
        let body = serde_json::json!({ "category": category });
        self.request(
            Method::POST,
            &["plans", plan_id, "categories"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `PATCH /plans/{plan_id}/categories/{category_id}`: rename, move, note, target.
    pub async fn update_category(
        &self,
        plan_id: &str,
        category_id: &str,
        change: &CategoryChange,
    ) -> Result<SavedCategory, Error> {
        let body = serde_json::json!({ "category": change });
        self.request(
            Method::PATCH,
            &["plans", plan_id, "categories", category_id],
            &[],
            Some(&body),
        )
        .await
    }

    /// `POST /plans/{plan_id}/accounts`: create an unlinked account (`kind` one of YNAB's
    /// `SaveAccountType`s) with its starting balance in milliunits.
    pub async fn create_account(
        &self,
        plan_id: &str,
        name: &str,
        kind: &str,
        balance: Milliunits,
    ) -> Result<crate::writes::SavedAccount, Error> {
        let body = serde_json::json!({"account": {"name": name, "type": kind, "balance": balance}});
        self.request(
            Method::POST,
            &["plans", plan_id, "accounts"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `POST /plans/{plan_id}/transactions`: create transactions in one request.
    pub async fn create_transactions(
        &self,
        plan_id: &str,
        transactions: &[NewTransaction],
    ) -> Result<SavedTransactions, Error> {
        let body = serde_json::json!({ "transactions": transactions });
        self.request(
            Method::POST,
            &["plans", plan_id, "transactions"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `PATCH /plans/{plan_id}/transactions`: update any number of transactions in one request.
    pub async fn update_transactions(
        &self,
        plan_id: &str,
        updates: &[TransactionUpdate],
    ) -> Result<SavedTransactions, Error> {
        let body = serde_json::json!({ "transactions": updates });
        self.request(
            Method::PATCH,
            &["plans", plan_id, "transactions"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `DELETE /plans/{plan_id}/transactions/{transaction_id}`.
    pub async fn delete_transaction(
        &self,
        plan_id: &str,
        transaction_id: &str,
    ) -> Result<SavedTransactions, Error> {
        self.request(
            Method::DELETE,
            &["plans", plan_id, "transactions", transaction_id],
            &[],
            None,
        )
        .await
    }

    /// `POST /plans/{plan_id}/scheduled_transactions`: create one scheduled transaction.
    pub async fn create_scheduled_transaction(
        &self,
        plan_id: &str,
        save: &ScheduleSave,
    ) -> Result<SavedSchedule, Error> {
        let body = serde_json::json!({ "scheduled_transaction": save });
        self.request(
            Method::POST,
            &["plans", plan_id, "scheduled_transactions"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `PUT /plans/{plan_id}/scheduled_transactions/{id}`: replace the whole schedule (every
    /// field of `save` is sent; none is left as it was).
    pub async fn update_scheduled_transaction(
        &self,
        plan_id: &str,
        scheduled_transaction_id: &str,
        save: &ScheduleSave,
    ) -> Result<SavedSchedule, Error> {
        let body = serde_json::json!({ "scheduled_transaction": save });
        self.request(
            Method::PUT,
            &[
                "plans",
                plan_id,
                "scheduled_transactions",
                scheduled_transaction_id,
            ],
            &[],
            Some(&body),
        )
        .await
    }

    /// `DELETE /plans/{plan_id}/scheduled_transactions/{id}`.
    pub async fn delete_scheduled_transaction(
        &self,
        plan_id: &str,
        scheduled_transaction_id: &str,
    ) -> Result<SavedSchedule, Error> {
        self.request(
            Method::DELETE,
            &[
                "plans",
                plan_id,
                "scheduled_transactions",
                scheduled_transaction_id,
            ],
            &[],
            None,
        )
        .await
    }

    /// `POST /plans/{plan_id}/transactions/import`: ask YNAB to import from linked banks.
    pub async fn import_transactions(&self, plan_id: &str) -> Result<Vec<String>, Error> {
        #[derive(Deserialize)]
        struct Data {
            #[serde(default)]
            transaction_ids: Vec<String>,
        }
        let data: Data = self
            .request(
                Method::POST,
                &["plans", plan_id, "transactions", "import"],
                &[],
                None,
            )
            .await?;
        Ok(data.transaction_ids)
    }

    /// `PATCH /plans/{plan_id}/payees/{payee_id}`: rename a payee.
    pub async fn rename_payee(
        &self,
        plan_id: &str,
        payee_id: &str,
        name: &str,
    ) -> Result<SavedPayee, Error> {
        let body = serde_json::json!({"payee": {"name": name}});
        self.request(
            Method::PATCH,
            &["plans", plan_id, "payees", payee_id],
            &[],
            Some(&body),
        )
        .await
    }

    /// `POST /plans/{plan_id}/payees`: create a payee by name.
    pub async fn create_payee(&self, plan_id: &str, name: &str) -> Result<SavedPayee, Error> {
        let body = serde_json::json!({"payee": {"name": name}});
        self.request(
            Method::POST,
            &["plans", plan_id, "payees"],
            &[],
            Some(&body),
        )
        .await
    }
}

/// Filters of `GET /plans/{plan_id}/transactions`.
#[derive(Debug, Clone, Default)]
pub struct TransactionFilter {
    pub last_knowledge: Option<i64>,
    /// `YYYY-MM-DD`.
    pub since_date: Option<String>,
    /// `uncategorized` or `unapproved`.
    pub kind: Option<String>,
}

fn knowledge_query(last_knowledge: Option<i64>) -> Vec<(&'static str, String)> {
    last_knowledge
        .map(|k| vec![("last_knowledge_of_server", k.to_string())])
        .unwrap_or_default()
}
