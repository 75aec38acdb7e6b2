"""Read a running `avenir-mcp sandbox` with YNAB's official Python client (pip install ynab==4.4.1).

Usage: python3 scripts/python_ynab_check.py http://127.0.0.1:PORT/v1
It starts nothing: give it the base URL the sandbox printed on its first line. With the client's
own API classes it reads plans, settings, the user, accounts, categories, months, transactions
(then deltas after a PATCH and a DELETE made through the client), scheduled transactions and
payees, and prints what it counted.
Any exception, a decode error (pydantic's ValidationError) included, exits non-zero.
It is a manual check that a YNAB client we did not write decodes the sandbox's answers; the test
suite checks the same answers against YNAB's OpenAPI spec (crates/ynab-sandbox/tests/openapi.rs).
"""

import sys
import traceback
from importlib.metadata import version

import ynab


def check(host: str) -> None:
    configuration = ynab.Configuration(host=host, access_token="any")
    with ynab.ApiClient(configuration) as client:
        plans_api = ynab.PlansApi(client)
        plans = plans_api.get_plans(include_accounts=True).data.plans
        print(f"plans: {len(plans)} ({plans[0].name})")
        plan_id = str(plans[0].id)

        plan = plans_api.get_plan_by_id(plan_id)
        p = plan.data.plan
        print(
            f"plan: {len(p.accounts)} accounts, {len(p.categories)} categories, "
            f"{len(p.months)} months, {len(p.transactions)} transactions, "
            f"{len(p.scheduled_transactions)} scheduled, {len(p.payees)} payees, "
            f"server_knowledge {plan.data.server_knowledge}"
        )
        settings = plans_api.get_plan_settings_by_id(plan_id).data.settings
        print(f"settings: {settings.currency_format.iso_code}, {settings.date_format.format}")
        user = ynab.UserApi(client).get_user().data.user
        print(f"user: {user.id}")

        accounts_api = ynab.AccountsApi(client)
        accounts = accounts_api.get_accounts(plan_id).data.accounts
        one = accounts_api.get_account_by_id(plan_id, str(accounts[0].id)).data.account
        print(f"accounts: {len(accounts)}; {one.name} balance {one.balance}")

        months_api = ynab.MonthsApi(client)
        months = months_api.get_plan_months(plan_id).data.months
        # The month of the plan's latest transaction: the plan's present, whatever today is.
        current = max(t.var_date for t in p.transactions).replace(day=1)
        month = months_api.get_plan_month(plan_id, current).data.month
        print(
            f"months: {len(months)}; {month.month} has {len(month.categories)} categories, "
            f"age of money {month.age_of_money}"
        )
        categories_api = ynab.CategoriesApi(client)
        groups = categories_api.get_categories(plan_id).data.category_groups
        categories = [c for g in groups for c in g.categories]
        # A category with a target if any (its target fields decoded too), else the first one.
        category = next((c for c in categories if c.goal_type is not None), categories[0])
        one = categories_api.get_category_by_id(plan_id, str(category.id)).data.category
        in_month = categories_api.get_month_category_by_id(
            plan_id, current, str(category.id)
        ).data.category
        print(
            f"categories: {len(groups)} groups, {len(categories)} categories; "
            f"{one.name} target {one.goal_type} under-funded {in_month.goal_under_funded}"
        )

        transactions_api = ynab.TransactionsApi(client)
        listed = transactions_api.get_transactions(plan_id).data
        knowledge = listed.server_knowledge
        print(f"transactions: {len(listed.transactions)}, server_knowledge {knowledge}")
        target = listed.transactions[-1]
        patch = ynab.PatchTransactionsWrapper(
            transactions=[
                ynab.SaveTransactionWithIdOrImportId(
                    id=target.id, memo="read by the official client"
                )
            ]
        )
        saved = transactions_api.update_transactions(plan_id, patch).data
        print(f"patched: {saved.transaction_ids}, server_knowledge {saved.server_knowledge}")
        delta = transactions_api.get_transactions(
            plan_id, last_knowledge_of_server=knowledge
        ).data
        changed = [t.id for t in delta.transactions]
        print(f"delta since {knowledge}: {changed}, server_knowledge {delta.server_knowledge}")
        if changed != [target.id] or delta.transactions[0].memo != "read by the official client":
            raise AssertionError(f"the delta should hold exactly {target.id}, patched")
        gone = listed.transactions[0]
        transactions_api.delete_transaction(plan_id, gone.id)
        after = delta.server_knowledge
        delta = transactions_api.get_transactions(plan_id, last_knowledge_of_server=after).data
        deleted = [(t.id, t.deleted) for t in delta.transactions]
        print(f"delta since {after} after a delete: {deleted}")
        if deleted != [(gone.id, True)]:
            raise AssertionError(f"the delta should hold {gone.id}, deleted")
        plan_delta = plans_api.get_plan_by_id(plan_id, last_knowledge_of_server=knowledge).data
        print(
            f"plan delta since {knowledge}: {len(plan_delta.plan.transactions)} transactions, "
            f"server_knowledge {plan_delta.server_knowledge}"
        )
        by_account = transactions_api.get_transactions_by_account(plan_id, str(one_account(accounts)))
        by_category = transactions_api.get_transactions_by_category(plan_id, str(category.id))
        by_month = transactions_api.get_transactions_by_month(plan_id, current.isoformat())
        one = transactions_api.get_transaction_by_id(plan_id, target.id).data.transaction
        print(
            f"transactions by account {len(by_account.data.transactions)}, "
            f"by category {len(by_category.data.transactions)}, "
            f"by month {len(by_month.data.transactions)}; one: {one.memo!r}"
        )

        scheduled_api = ynab.ScheduledTransactionsApi(client)
        scheduled = scheduled_api.get_scheduled_transactions(plan_id).data.scheduled_transactions
        one = scheduled_api.get_scheduled_transaction_by_id(
            plan_id, str(scheduled[0].id)
        ).data.scheduled_transaction
        print(f"scheduled transactions: {len(scheduled)}; {one.frequency} on {one.date_next}")

        payees_api = ynab.PayeesApi(client)
        payees = payees_api.get_payees(plan_id).data.payees
        one = payees_api.get_payee_by_id(plan_id, str(payees[0].id)).data.payee
        by_payee = transactions_api.get_transactions_by_payee(plan_id, str(one.id))
        print(f"payees: {len(payees)}; {one.name} has {len(by_payee.data.transactions)} transactions")


def one_account(accounts) -> str:
    """The id of the first open budget account."""
    return next(a.id for a in accounts if a.on_budget and not a.closed)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        check(sys.argv[1])
    except Exception:  # noqa: BLE001 - any failure, a decode error first of all, fails the check
        traceback.print_exc()
        print("FAILED: the official ynab client could not read the sandbox", file=sys.stderr)
        return 1
    print(f"ok: ynab {version('ynab')} read the sandbox without a decode error")
    return 0


if __name__ == "__main__":
    sys.exit(main())
