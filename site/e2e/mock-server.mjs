// A small stand-in for the Go dev server, implementing only the auth/misc contract the
// SPA foundation uses. It serves site/dist with history fallback, like the real one.
// Usage: node e2e/mock-server.mjs [port]   (DEMO_ADMIN_PASSWORD, default demo-pass-123)
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const port = Number(process.argv[2] ?? process.env.PORT ?? 8091);
const password = process.env.DEMO_ADMIN_PASSWORD ?? 'demo-pass-123';
const tenants = {
  demo: {
    id: 'demo', name: 'Demo Institution', logoFull: '', planId: 'basic', themeSetting: null,
    seoSetting: null, appIconLogo: '', fullWidthAppLogo: '',
  },
};
const user = {
  id: '01USER', username: 'admin', email: 'admin@example.com', phone: '5550000000', firstName: 'Demo',
  lastName: 'Admin', isAdmin: true, roleId: 'admin', status: true, permissions: [],
};
const sessions = new Map();
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req) {
  let data = '';
  for await (const chunk of req) data += chunk;
  try { return data ? JSON.parse(data) : {}; } catch { return {}; }
}

async function api(req, res, path) {
  const tenant = tenants[req.headers['x-tenant-id']];
  if (!tenant) return send(res, 404, { message: 'Could not find institution!' });
  if (path === '/auth/tenant-info') return send(res, 200, { result: tenant, objectUrlPrefix: `/media/${tenant.id}/` });
  if (req.method === 'POST' && (path === '/auth/login' || path === '/auth/passcode')) {
    const body = await readBody(req);
    const ok = body.username === user.username && (path === '/auth/login' ? body.password === password : body.passcode === '246810');
    if (!ok) return send(res, 401, { message: 'Invalid username or password' });
    const token = randomBytes(16).toString('hex');
    sessions.set(token, true);
    return send(res, 200, { result: { user, token } });
  }
  const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (!sessions.has(token)) return send(res, 401, { message: 'Unauthorized' });
  if (path === '/auth/me' && req.method === 'GET') return send(res, 200, { result: user });
  if (path === '/auth/me' && req.method === 'PATCH') {
    const body = await readBody(req);
    if (!/^[0-9\s\-()+]{10}$/.test(body.phone ?? '')) {
      return send(res, 400, { message: 'Please enter a 10 digit phone number!', errors: { phone: 'Please enter a 10 digit phone number!' } });
    }
    Object.assign(user, { username: body.username, email: body.email, phone: body.phone });
    return send(res, 200, { result: user, message: 'Profile updated!' });
  }
  if (path === '/auth/logout') { sessions.delete(token); return send(res, 200, { result: true }); }
  if (path === '/misc/masters') {
    return send(res, 200, { result: { dashboardStats: { pageCount: 12, formCount: 3, popupCount: 1, albumCount: 1250, newsletterSignupCount: 3400000, customFormSubmissionCount: 0 }, itemGroups: {} } });
  }
  return send(res, 404, { message: 'Not found' });
}

createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/api/health') return send(res, 200, { result: 'ok' });
  if (url.pathname.startsWith('/api/v1/tenant/')) return api(req, res, url.pathname.slice('/api/v1/tenant'.length));
  const file = normalize(join(dist, url.pathname));
  const target = file.startsWith(dist) && extname(file) ? file : join(dist, 'index.html');
  try {
    const data = await readFile(target);
    res.writeHead(200, { 'Content-Type': types[extname(target)] ?? 'application/octet-stream' });
    res.end(data);
  } catch {
    res.writeHead(404).end('not found');
  }
}).listen(port, '127.0.0.1', () => console.log(`mock server on http://127.0.0.1:${port}`));
