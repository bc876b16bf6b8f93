using System;
using System.Collections.Generic;
using System.Linq;

namespace Bank.Core
{
    public enum AccountKind
    {
        Checking,
        Savings,
        Credit
    }

    public class Account
    {
        public string Id { get; set; }
        public decimal Balance { get; private set; }
        public AccountKind Kind { get; set; }

        public void Deposit(decimal amount)
        {
            if (amount <= 0)
            {
                throw new ArgumentException("amount must be positive");
            }
            Balance += amount;
        }

        public bool Withdraw(decimal amount)
        {
            if (amount <= 0)
            {
                throw new ArgumentException("amount must be positive");
            }
            if (Balance < amount)
            {
                return false;
            }
            Balance -= amount;
            return true;
        }
    }

    public class Ledger
    {
        private readonly List<Account> accounts = new List<Account>();
        private static readonly string[] Currencies = new[] { "USD", "EUR", "GBP" };

        public void Open(Account account)
        {
            accounts.Add(account);
        }

        public decimal Total()
        {
            return accounts.Sum(a => a.Balance);
        }

        public Account Find(string id)
        {
            return accounts.FirstOrDefault(a => a.Id == id);
        }
    }
}
