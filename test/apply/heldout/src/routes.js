const express = require('express');
const { listUsers, findUser, createUser } = require('./users');

const router = express.Router();
const LIMITS = [10, 25, 50, 100];

router.get('/users', async (req, res) => {
  const limit = Number(req.query.limit) || 25;
  const users = await listUsers(limit);
  res.json(users);
});

router.get('/users/:id', async (req, res) => {
  const user = await findUser(req.params.id);
  if (!user) {
    return res.status(404).json({ error: 'not found' });
  }
  res.json(user);
});

router.post('/users', async (req, res) => {
  const user = await createUser(req.body);
  res.status(201).json(user);
});

router.delete('/users/:id', async (req, res) => {
  const user = await findUser(req.params.id);
  if (!user) {
    return res.status(404).json({ error: 'not found' });
  }
  await user.destroy();
  res.status(204).end();
});

function paginate(items, page, size) {
  const start = (page - 1) * size;
  return items.slice(start, start + size);
}

function sortBy(items, key) {
  return [...items].sort((a, b) => (a[key] < b[key] ? -1 : 1));
}

module.exports = { router, paginate, sortBy };
