// The web console: a token login, then pages drawn from the JSON API. No framework, no build.
const page = document.getElementById('page');
const nav = document.getElementById('nav');
const login = document.getElementById('login');

const fromFragment = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromFragment) {
  sessionStorage.setItem('moonglass-token', fromFragment);
  history.replaceState(null, '', '#overview');
}

function token() {
  return sessionStorage.getItem('moonglass-token') ?? '';
}

async function api(method, path, body) {
  const response = await fetch(`/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token()}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    sessionStorage.removeItem('moonglass-token');
    showLogin('That token was not accepted.');
    throw new Error('unauthorised');
  }
  return { status: response.status, data: await response.json() };
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) node.append(child instanceof Node ? child : document.createTextNode(String(child ?? '')));
  return node;
}

function showLogin(message = '') {
  nav.hidden = true;
  page.replaceChildren();
  login.hidden = false;
  document.getElementById('login-error').textContent = message;
}

login.addEventListener('submit', async (event) => {
  event.preventDefault();
  sessionStorage.setItem('moonglass-token', document.getElementById('token').value.trim());
  login.hidden = true;
  await route();
});

/** Shown while no chatter runs: messages are stored, nobody answers them. */
function noChatterWarning(chatters) {
  if (chatters === undefined || chatters.length > 0) return '';
  return el('p', { id: 'no-chatter', class: 'warning', role: 'alert' },
    'No chatter is running: messages are stored but nobody answers them. Enable one on the ',
    el('a', { href: '#plugins' }, 'Plugins'), ' page (neo_default_chatter is the default); the messages that arrived meanwhile are answered then.');
}

/** Enables or disables a plugin; switching off the chatter that answers messages asks first. */
async function switchPlugin(id, enabled) {
  const path = `/plugins/${encodeURIComponent(id)}/enabled`;
  const answer = await api('POST', path, { enabled });
  if (answer.status === 409 && typeof answer.data.confirm === 'string') {
    if (!window.confirm(answer.data.confirm)) return;
    await api('POST', path, { enabled, confirm: true });
  }
  await route();
}

const pages = {
  async overview() {
    const { data } = await api('GET', '/overview');
    const adapter = data.adapter ? `${data.adapter.name}: ${data.adapter.connected ? 'connected' : 'not connected'}${data.adapter.detail ? ` (${data.adapter.detail})` : ''}` : 'none';
    return el('section', {},
      el('h2', {}, 'Overview'),
      noChatterWarning(data.chatters),
      el('table', {}, [
        ['Version', data.version], ['Uptime', `${data.uptimeSeconds} s`], ['Model', data.model], ['Adapter', adapter],
        ['Messages today', `${data.messagesToday.inbound} in, ${data.messagesToday.outbound} out`],
        ['Database', data.database.file === ':memory:' ? 'in memory' : `${(data.database.sizeBytes / 1048576).toFixed(1)} MiB (${data.database.file})`],
        ['Plugins', `${data.plugins.loaded} loaded of ${data.plugins.total}`], ['Config', data.configDir], ['Data', data.dataDir],
      ].map(([name, value]) => el('tr', {}, el('th', {}, name), el('td', { 'data-field': name }, value)))),
      accountsTable(data.accounts));
  },
  async plugins() {
    const { data } = await api('GET', '/plugins');
    return el('section', {},
      el('h2', {}, 'Plugins'),
      pluginTabs('plugins'),
      el('table', {},
        el('tr', {}, el('th', {}, 'Plugin'), el('th', {}, 'Version'), el('th', {}, 'State'), el('th', {}, 'Tools and components'), el('th', {})),
        data.plugins.map((plugin) => el('tr', { 'data-plugin': plugin.id },
          el('td', {}, plugin.name ?? plugin.id ?? plugin.folder, el('br'), el('code', {}, plugin.id ?? '')),
          el('td', {}, plugin.version ?? ''),
          el('td', { class: `state-${plugin.state}` }, plugin.state, plugin.reason ? el('p', { class: 'help' }, `${plugin.stage}: ${plugin.reason}`) : ''),
          el('td', {}, [...plugin.tools, ...plugin.components].map((signature) => el('div', {}, el('code', {}, signature)))),
          el('td', {}, plugin.id ? [
            el('a', { href: `#config/${encodeURIComponent(plugin.id)}` }, 'Settings'), ' ',
            plugin.state === 'loaded' || plugin.state === 'disabled'
              ? el('button', { type: 'button', 'data-toggle': plugin.id, onclick: () => switchPlugin(plugin.id, plugin.state !== 'loaded') },
                  plugin.state === 'loaded' ? 'Disable' : 'Enable')
              : '',
          ] : '')))));
  },
  async market() {
    const words = el('input', { id: 'market-words', type: 'search', autocomplete: 'off', placeholder: 'Words to search for, e.g. weather' });
    const status = el('div', { id: 'market-status', role: 'status' });
    const results = el('div', { id: 'market-results' });
    const progress = el('div', { id: 'market-progress', class: 'market-progress', hidden: true });
    const form = el('form', { id: 'market-search' }, words, el('button', { type: 'submit' }, 'Search'));
    let lastWords = '';
    async function search() {
      lastWords = words.value.trim();
      if (lastWords === '') return;
      status.replaceChildren(el('p', { class: 'help' }, `Searching the registry for “${lastWords}” …`));
      const { status: code, data } = await api('GET', `/market/search?words=${encodeURIComponent(lastWords)}`);
      if (code !== 200) {
        status.replaceChildren(el('p', { class: 'error', role: 'alert' }, data.error ?? `The search failed (${code}).`));
        results.replaceChildren();
        return;
      }
      if (!data.reachable) {
        status.replaceChildren(el('p', { id: 'market-offline', class: 'warning', role: 'alert' },
          `The registry ${data.registry} cannot be reached: ${(data.problem ?? 'no answer').replace(/\.$/, '')}. Installed plugins keep working; search again once the network is back.`));
        results.replaceChildren();
        return;
      }
      status.replaceChildren(el('p', { class: 'help' }, `${data.results.length} plugin package(s) in ${data.registry} match “${lastWords}”.`));
      results.replaceChildren(data.results.length === 0 ? '' : el('table', { id: 'market-table' },
        el('tr', {}, el('th', {}, 'Package'), el('th', {}, 'Version'), el('th', {}, 'Description'), el('th', {}, 'Compatibility'), el('th', {}, 'Installed'), el('th', {})),
        data.results.map((result) => el('tr', { 'data-package': result.name },
          el('td', {}, el('code', {}, result.name)),
          el('td', {}, result.version),
          el('td', {}, result.description),
          el('td', { class: result.compatible === false ? 'state-failed' : result.compatible ? 'state-loaded' : '' }, result.compatibility),
          el('td', { 'data-field': 'installed' }, result.installedVersion === undefined ? 'not installed'
            : [`${result.installedVersion}`, result.plugin ? el('p', { class: 'help' }, `${result.plugin.id}: ${result.plugin.state}`) : '']),
          el('td', {}, marketButtons(result))))));
    }
    function marketButtons(result) {
      const button = (action, label, disabled) => el('button', { type: 'button', 'data-action': action, disabled, onclick: () => change(action, result.name) }, label);
      if (result.installedVersion === undefined) return button('install', 'Install', result.compatible === false);
      return [
        result.installedVersion === result.version ? '' : button('update', `Update to ${result.version}`, result.compatible === false), ' ',
        button('remove', 'Remove', false),
      ];
    }
    async function change(action, name) {
      const { status: code, data } = await api('POST', '/market/changes', { action, name });
      if (code === 202 || code === 409) {
        if (code === 409) progress.prepend(el('p', { class: 'warning', role: 'alert' }, data.error));
        await follow(data.job, code === 202);
        return;
      }
      progress.hidden = false;
      progress.replaceChildren(el('p', { class: 'error', role: 'alert' }, data.error ?? `Failed (${code}).`));
    }
    // Shows a change's progress lines as they come (the page asks twice a second), then how it ended.
    async function follow(job, fresh) {
      for (const button of results.querySelectorAll('button')) button.disabled = true;
      const lines = el('div', { class: 'market-lines', 'data-job': job.id });
      const ending = el('p', { id: 'market-summary', role: 'status' }, `${job.action} ${job.name} …`);
      progress.hidden = false;
      if (fresh) progress.replaceChildren();
      progress.append(el('h3', {}, `${job.action} ${job.name}`), lines, ending);
      let shown = 0;
      for (;;) {
        for (const line of job.lines.slice(shown)) lines.append(el('div', { class: 'market-line' }, line));
        shown = job.lines.length;
        if (job.state !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 500));
        if (!progress.isConnected) return;
        job = (await api('GET', `/market/changes/${job.id}`)).data.job;
      }
      ending.className = job.state === 'succeeded' ? 'notice' : 'error';
      ending.dataset.state = job.state;
      ending.replaceChildren(job.summary ?? job.state, ' ', el('a', { href: '#plugins' }, 'See the plugins'));
      if (lastWords !== '') await search(); else for (const button of results.querySelectorAll('button')) button.disabled = false;
    }
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      await search();
    });
    // A change started earlier (in another tab, say) that still runs is followed here too.
    const current = await api('GET', '/market/changes');
    if (current.status === 404) {
      return el('section', {}, el('h2', {}, 'Plugins'), pluginTabs('market'), el('p', { id: 'market-missing', class: 'warning' }, current.data.error));
    }
    if (current.data.job?.state === 'running') follow(current.data.job, true);
    return el('section', {}, el('h2', {}, 'Plugins'), pluginTabs('market'),
      el('p', { class: 'help' }, 'Search the npm registry for moonglass plugin packages and install, update or remove them in this bot project. The plugin loads (or unloads) in the running host: no restart.'),
      form, status, results, progress);
  },
  async config(id) {
    const { data } = await api('GET', `/plugins/${encodeURIComponent(id)}/config`);
    const form = el('form', { id: 'config-form' });
    const inputs = [];
    const addFields = (fields, prefix, parent) => {
      for (const field of fields) {
        const path = prefix === '' ? field.key : `${prefix}.${field.key}`;
        if (field.kind === 'object') {
          const set = el('fieldset', {}, el('legend', {}, field.key), field.description ? el('p', { class: 'help' }, field.description) : '');
          addFields(field.fields, path, set);
          parent.append(set);
          continue;
        }
        const id = `field-${path}`;
        let input;
        // A secret of any kind is a password box: its value never comes to the page.
        if (field.secret) input = el('input', { id, type: 'password', autocomplete: 'off', placeholder: field.secretSet ? 'set (leave empty to keep it)' : 'not set' });
        else if (field.kind === 'boolean') input = el('input', { id, type: 'checkbox', checked: field.value === true });
        else if (field.kind === 'enum') input = el('select', { id }, field.options.map((option) => el('option', { value: option, selected: option === field.value }, option)));
        else if (field.kind === 'integer' || field.kind === 'number') input = el('input', { id, type: 'number', step: field.kind === 'integer' ? '1' : 'any', value: field.value ?? '' });
        else if (field.kind === 'list') input = el('input', { id, value: (field.value ?? []).join(', ') });
        else if (field.kind === 'json') input = el('textarea', { id }, JSON.stringify(field.value ?? null));
        else input = el('input', { id, value: field.value ?? '' });
        inputs.push({ path, field, input });
        parent.append(el('div', { class: 'field', 'data-field': path },
          el('label', { for: id }, field.key, field.secret ? el('span', { class: 'help' }, field.secretSet ? ' (secret: set)' : ' (secret: not set)') : ''),
          input,
          field.description ? el('p', { class: 'help' }, field.description) : '',
          el('p', { class: 'error', id: `error-${path}`, role: 'alert' })));
      }
    };
    addFields(data.fields, '', form);
    const result = el('p', { id: 'save-result', role: 'status' });
    form.append(el('button', { type: 'submit' }, 'Save and reload'), result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const values = {};
      for (const { path, field, input } of inputs) {
        let value;
        // A secret is always sent ("" keeps the one on disk); text that is not a string field is read as JSON if it can be.
        if (field.secret) { try { value = field.kind === 'string' || input.value === '' ? input.value : JSON.parse(input.value); } catch { value = input.value; } }
        else if (field.kind === 'boolean') value = input.checked;
        else if (field.kind === 'integer' || field.kind === 'number') value = input.value === '' ? undefined : Number(input.value);
        else if (field.kind === 'list') value = input.value.split(',').map((item) => item.trim()).filter((item) => item !== '');
        else if (field.kind === 'json') { try { value = JSON.parse(input.value); } catch { value = input.value; } }
        else value = input.value;
        if (value === undefined) continue;
        const keys = path.split('.');
        let target = values;
        for (const key of keys.slice(0, -1)) target = target[key] ??= {};
        target[keys.at(-1)] = value;
      }
      for (const node of form.querySelectorAll('.error')) node.textContent = '';
      const { status, data: answer } = await api('PUT', `/plugins/${encodeURIComponent(id)}/config`, { values });
      if (status === 422) {
        for (const error of answer.errors) {
          const slot = document.getElementById(`error-${error.field}`) ?? result;
          slot.textContent = error.reason;
        }
        result.textContent = 'Not saved: fix the fields marked above.';
      } else if (status === 200) {
        const notes = (answer.warnings ?? []).map((warning) => ` ${warning.field}: ${warning.reason}.`).join('');
        result.textContent = `Saved. The plugin is now ${answer.state}${answer.reason ? ` (${answer.reason})` : ''}.${notes}`;
      } else {
        result.textContent = answer.error ?? `Failed (${status}).`;
      }
    });
    return el('section', {}, el('h2', {}, `Settings of ${id}`), form);
  },
  async events() {
    const { data } = await api('GET', '/events');
    return el('section', {},
      el('h2', {}, 'Events'),
      el('p', { class: 'help' }, 'Each event’s handlers in the order they run (higher weight first). A handler that returns STOP replaces the ones after it.'),
      data.events.map((entry) => el('div', { 'data-event': entry.event },
        el('h3', {}, el('code', {}, entry.event)),
        el('table', {}, el('tr', {}, el('th', {}, 'Weight'), el('th', {}, 'Handler'), el('th', {}, 'Plugin')),
          entry.handlers.map((handler) => el('tr', {}, el('td', {}, handler.weight), el('td', {}, el('code', {}, handler.label)), el('td', {}, handler.plugin ?? '')))))));
  },
  async conversations() {
    const { data } = await api('GET', '/conversations');
    return el('section', {},
      el('h2', {}, 'Conversations'),
      el('table', {}, el('tr', {}, el('th', {}, 'Stream'), el('th', {}, 'Platform'), el('th', {}, 'Account'), el('th', {}, 'Chat'), el('th', {}, 'Phase')),
        data.conversations.map((stream) => el('tr', { 'data-stream': stream.streamId },
          el('td', {}, el('a', { href: `#messages/${encodeURIComponent(stream.streamId)}` }, stream.groupName ?? stream.userName ?? stream.streamId.slice(0, 12))),
          el('td', {}, stream.platform),
          el('td', { 'data-field': 'account' }, stream.account === null ? '—' : [stream.account, el('p', { class: 'help' }, stream.accountNickname)]),
          el('td', {}, stream.chatType), el('td', {}, stream.phase ?? stream.state ?? 'idle')))));
  },
  async rules() {
    const { status, data } = await api('GET', '/rules');
    if (status !== 200) return el('section', {}, el('h2', {}, 'Rules'), el('p', { class: 'help' }, data.error ?? 'This host has no per-chat rules.'));
    const table = el('table', { id: 'rules-table' });
    const editor = el('textarea', { id: 'rules-json', spellcheck: 'false', 'aria-label': 'The rules as JSON' });
    const errors = el('ul', { id: 'rules-errors', role: 'alert' });
    const result = el('div', { id: 'rules-status', role: 'status' });
    function show(rules) {
      table.replaceChildren(
        el('tr', {}, el('th', {}, '#'), el('th', {}, 'Name'), el('th', {}, 'Matches'), el('th', {}, 'Settings')),
        ...(rules.length === 0 ? [el('tr', {}, el('td', { colspan: 4 }, 'No rules: every chat uses the defaults.'))] : []),
        ...rules.map((entry, index) => el('tr', { 'data-rule': entry.name },
          el('td', {}, index + 1),
          el('td', { 'data-field': 'name' }, entry.name),
          el('td', { 'data-field': 'matches' }, ruleParts(entry.rule, (key) => RULE_MATCHES.includes(key), 'any chat, any time')),
          el('td', { 'data-field': 'settings' }, ruleParts(entry.rule, (key) => key !== 'name' && !RULE_MATCHES.includes(key), 'defaults')))));
      editor.value = JSON.stringify(rules.map((entry) => entry.rule), null, 2);
    }
    async function save(event) {
      event.preventDefault();
      errors.replaceChildren();
      result.replaceChildren();
      let rules;
      try {
        rules = JSON.parse(editor.value);
      } catch (error) {
        errors.append(el('li', { 'data-field': '' }, `Not valid JSON: ${error.message}`));
        return;
      }
      const answer = await api('PUT', '/rules', { rules });
      if (answer.status !== 200) {
        const list = answer.data.errors ?? [{ field: '', reason: answer.data.error ?? `HTTP ${answer.status}` }];
        errors.append(...list.map((issue) => el('li', { 'data-field': issue.field }, issue.field === '' ? issue.reason : [el('code', {}, issue.field), `: ${issue.reason}`])));
        return;
      }
      show(answer.data.rules);
      result.append(el('p', { class: 'notice' }, `Saved to ${answer.data.file}; the next message is matched against these rules.`));
    }
    show(data.rules);
    return el('section', {},
      el('h2', {}, 'Rules'),
      el('p', { class: 'help' }, 'bot.toml [[rules]] in ', el('code', {}, data.file), `. The first rule whose accounts, groups, private and hours all match a conversation applies; hours are in ${data.timeZone}.`),
      data.inUse ? '' : el('p', { id: 'rules-not-in-use', class: 'warning' }, 'The rules in bot.toml are not the ones in use (the file was edited since the start, or does not validate): Save puts them in use, or shows what is wrong.'),
      table,
      el('h3', {}, 'Edit'),
      el('p', { class: 'help' }, 'The list of rules as JSON, with the fields bot.toml gives them. Save writes only the [[rules]] tables of bot.toml (everything else in the file stays) and puts them in use at once.'),
      el('form', { id: 'rules-form', onsubmit: save }, editor, errors, el('button', { type: 'submit', id: 'rules-save' }, 'Save')),
      result);
  },
  async usage() {
    const { data } = await api('GET', '/usage');
    const days = [...new Set(data.usage.map((row) => row.day))];
    const sum = (day, key) => data.usage.filter((row) => row.day === day).reduce((total, row) => total + row[key], 0);
    // Today's tokens per task in the bot's time zone; with a daily budget, the share spent ("412 / 500 (82%)").
    const spent = (task) => task.budget === null ? String(task.tokens) : `${task.tokens} / ${task.budget} (${Math.round(task.share * 100)}%)`;
    const today = data.today === null || data.today.tasks.length === 0 ? [] : [
      el('h3', {}, `Today (${data.today.day}, ${data.today.timeZone})`),
      el('table', { id: 'usage-today' },
        el('tr', {}, el('th', {}, 'Task'), el('th', {}, 'Tokens today / daily budget')),
        data.today.tasks.map((task) => el('tr', { 'data-task': task.task, class: task.share !== null && task.share >= 1 ? 'spent' : '' },
          el('td', {}, task.task), el('td', {}, task.share !== null && task.share >= 1 ? `${spent(task)} — spent, requests fail until 00:00` : spent(task))))),
    ];
    return el('section', {},
      el('h2', {}, `Model usage, last ${data.days} days`),
      today,
      days.length === 0 ? el('p', { id: 'usage-empty' }, 'No model calls yet.') : [
        el('h3', {}, 'Calls per day'), barChart('chart-calls', days.map((day) => [day, sum(day, 'calls')])),
        el('h3', {}, 'Tokens per day (prompt + completion)'), barChart('chart-tokens', days.map((day) => [day, sum(day, 'promptTokens') + sum(day, 'completionTokens')])),
        el('table', { id: 'usage-table' },
          el('tr', {}, el('th', {}, 'Day'), el('th', {}, 'Task'), el('th', {}, 'Calls'), el('th', {}, 'Failed'), el('th', {}, 'Tokens in / out'), el('th', {}, 'Mean latency')),
          data.usage.map((row) => el('tr', {}, el('td', {}, row.day), el('td', {}, row.task), el('td', {}, row.calls), el('td', {}, row.failures),
            el('td', {}, `${row.promptTokens} / ${row.completionTokens}`), el('td', {}, row.averageMs === null ? '—' : `${row.averageMs} ms`)))),
      ]);
  },
  async traces(streamId) {
    if (streamId === undefined) {
      const { data } = await api('GET', '/traces');
      return el('section', {}, el('h2', {}, 'Traces'),
        el('p', { class: 'help' }, 'Each conversation’s recent turns (one per message or wake-up its chatter answered): the model calls with the prompt sent, the tool calls with their arguments and results (a repeat skipped within the turn marked “duplicate”), and every event published with the handlers that ran (plugin, weight, decision, time; “not reached” below a STOP).'),
        data.streams.length === 0 ? el('p', {}, 'Nothing traced yet.') :
          el('table', { id: 'trace-streams' },
            el('tr', {}, el('th', {}, 'Conversation'), el('th', {}, 'Platform'), el('th', {}, 'Turns'), el('th', {}, 'Last turn')),
            data.streams.map((stream) => el('tr', { 'data-stream': stream.streamId },
              el('td', {}, el('a', { href: `#traces/${encodeURIComponent(stream.streamId)}` }, stream.name), ' ', el('code', { class: 'help' }, stream.streamId.slice(0, 12))),
              el('td', {}, [stream.platform, stream.chatType].filter(Boolean).join(' · ')),
              el('td', {}, `${stream.turns} turn(s)`), el('td', {}, new Date(stream.lastAt).toLocaleString())))));
    }
    const { data } = await api('GET', `/traces/${encodeURIComponent(streamId)}`);
    return el('section', {}, el('h2', {}, `Traces of ${data.name}`),
      data.turns.map((turn) => el('details', { open: turn === data.turns[0], 'data-turn': turn.id, class: 'turn' },
        el('summary', {}, turnTitle(turn)),
        turn.modelCalls.map((call, index) => modelCallView(call, index)),
        turn.toolCalls.length === 0 ? el('p', { class: 'help' }, 'No tool calls.') : el('table', { class: 'tool-calls' },
          el('tr', {}, el('th', {}, 'Tool'), el('th', {}, 'Arguments'), el('th', {}, 'Result'), el('th', {}, 'Time')),
          turn.toolCalls.map((call) => el('tr', { class: `tool-call outcome-${call.outcome}`, 'data-tool': call.name, 'data-outcome': call.outcome },
            el('td', {}, el('code', {}, call.name)), el('td', {}, el('code', {}, JSON.stringify(call.args))),
            el('td', {}, call.outcome === 'duplicate' ? `⚠ duplicate, ${call.result}` : call.outcome === 'failed' ? `✗ ${call.result}` : call.result),
            el('td', {}, call.durationMs === null ? '' : `${call.durationMs} ms`)))),
        el('details', { class: 'trace-events' }, el('summary', {}, `Events and handlers (${turn.publishes.length})`),
          el('table', { class: 'trace' },
            el('tr', {}, el('th', {}, 'Event / handler'), el('th', {}, 'Weight'), el('th', {}, 'Plugin'), el('th', {}, 'Outcome'), el('th', {}, 'Time')),
            turn.publishes.map((publish) => [
              el('tr', { class: 'trace-event', 'data-event': publish.event },
                el('td', {}, el('code', {}, publish.event), publish.summary ? el('p', { class: 'help' }, publish.summary) : '',
                  publish.note ? el('p', { class: 'trace-note', 'data-note': publish.note }, `⚠ ${publish.note}`) : ''),
                el('td', {}), el('td', {}), el('td', {}, publish.decision), el('td', {}, `${publish.durationMs} ms`)),
              publish.handlers.map((handler) => el('tr', { class: 'trace-handler', 'data-handler': handler.label },
                el('td', {}, '↳ ', el('code', {}, handler.label)), el('td', {}, handler.weight), el('td', {}, handler.owner ?? ''),
                el('td', { class: `outcome-${handler.outcome.replace(/ /g, '-')}` }, handler.outcome), el('td', {}, `${handler.durationMs} ms`))),
            ]))))));
  },
  async sandbox() {
    let after = 0;
    // One request at a time, each asking for the lines after the last one shown: two polls in
    // flight at once (the timer's and the one after sending) used to both add the same lines.
    let queue = Promise.resolve();
    const log = el('div', { id: 'sandbox-log', class: 'sandbox-log' });
    const phase = el('p', { id: 'sandbox-phase' }, 'Phase: —');
    const warning = el('div', { id: 'sandbox-warning' });
    const chat = el('select', { id: 'sandbox-chat' }, el('option', { value: 'private' }, 'Private chat'), el('option', { value: 'group' }, 'Group chat'));
    const mention = el('input', { id: 'sandbox-mention', type: 'checkbox', checked: true });
    const text = el('input', { id: 'sandbox-text', autocomplete: 'off', placeholder: 'Say something to the bot' });
    const send = el('button', { type: 'submit' }, 'Send');
    const form = el('form', { id: 'sandbox-form' }, chat, el('label', {}, mention, ' @ the bot (group)'), text, send);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (text.value.trim() === '' || send.disabled) return;
      send.disabled = true; // a second Enter while sending would send the line twice
      try {
        await api('POST', '/sandbox/messages', { chat: chat.value, text: text.value, mention: mention.checked });
        text.value = '';
      } finally {
        send.disabled = false;
      }
      await poll();
    });
    async function pollOnce() {
      const { data } = await api('GET', `/sandbox?after=${after}`);
      for (const line of data.lines) {
        if (line.seq <= after) continue;
        after = line.seq;
        log.append(el('div', { class: `line from-${line.from}`, 'data-from': line.from, 'data-seq': line.seq }, `[${line.chat}] ${line.from === 'bot' ? 'bot' : 'you'}: ${line.text}`));
      }
      phase.textContent = `Phase: private ${data.phases.private ?? '—'}, group ${data.phases.group ?? '—'}`;
      warning.replaceChildren(noChatterWarning(data.chatters));
    }
    function poll() {
      queue = queue.then(pollOnce, pollOnce);
      return queue;
    }
    // The next poll is asked for once the last one answered, and only while the page is shown.
    async function keepPolling() {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        if (!log.isConnected) return;
        try { await poll(); } catch { return; }
      }
    }
    await poll();
    keepPolling();
    return el('section', {}, el('h2', {}, 'Sandbox'),
      el('p', { class: 'help' }, 'Chat with the bot as a sandbox user, in private or in a group; the phase of each conversation updates as it changes.'),
      warning, phase, log, form);
  },
  async messages(streamId) {
    const { data } = await api('GET', `/conversations/${encodeURIComponent(streamId)}/messages`);
    return el('section', {},
      el('h2', {}, 'Messages'),
      el('table', {}, data.messages.map((message) => el('tr', {},
        el('td', {}, new Date(message.time * 1000).toLocaleString()),
        el('td', {}, message.direction === 'outbound' ? '→' : (message.senderName || message.senderId)),
        el('td', {}, message.processedPlainText)))));
  },
};

/** The fields of a rule that say where and when it applies; the others are what it sets. */
const RULE_MATCHES = ['accounts', 'groups', 'private', 'hours'];

/** `key: value` lines of a rule's fields that `pick` takes; `none` when there is none. */
function ruleParts(rule, pick, none) {
  const parts = Object.entries(rule).filter(([key]) => pick(key));
  if (parts.length === 0) return el('span', { class: 'help' }, none);
  const shown = (value) => Array.isArray(value) ? value.map(shown).join(', ') : typeof value === 'object' && value !== null
    ? Object.entries(value).map(([key, item]) => `${key} = ${shown(item)}`).join(', ') : String(value);
  return parts.map(([key, value]) => el('span', { class: 'rule-part', 'data-key': key }, `${key}: ${shown(value)}`));
}

/** The Overview's bot accounts: the adapter's (connected or not), then those known only from stored conversations. */
function accountsTable(accounts) {
  if (accounts === undefined || accounts.length === 0) return '';
  return [
    el('h3', {}, 'Accounts'),
    el('table', { id: 'accounts' },
      el('tr', {}, el('th', {}, 'Account'), el('th', {}, 'Nickname'), el('th', {}, 'Connection'), el('th', {}, 'Messages in / out'), el('th', {}, 'Conversations')),
      accounts.map((account) => el('tr', { 'data-account': account.selfId },
        el('td', {}, account.selfId),
        el('td', {}, account.nickname),
        el('td', { class: account.connected ? 'account-connected' : 'account-offline' }, account.connected ? 'connected' : 'offline',
          account.detail ? el('p', { class: 'help' }, account.detail) : ''),
        el('td', {}, `${account.inbound} / ${account.outbound}`),
        el('td', {}, account.streams)))),
  ];
}

/** The Plugins page's two views: the plugins of this host, and the registry's market. */
function pluginTabs(current) {
  return el('nav', { class: 'tabs' },
    el('a', { href: '#plugins', class: current === 'plugins' ? 'active' : undefined }, 'Installed'),
    el('a', { href: '#market', class: current === 'market' ? 'active' : undefined, 'data-page': 'market' }, 'Market'));
}

/** A turn's one-line title: when, what woke the chatter, the tools called, how it ended. */
function turnTitle(turn) {
  const woke = turn.source === null ? '' : ` — woken by ${turn.source}${turn.unreadCount === null ? '' : `, ${turn.unreadCount} unread`}`;
  const tools = turn.toolCalls.length === 0 ? '' : ` — tools: ${turn.toolCalls.map((call) => call.outcome === 'duplicate' ? `${call.name} (duplicate)` : call.name).join(', ')}`;
  const ended = turn.outcome === null ? '' : ` — ended: ${turn.outcome}`;
  return `Turn ${turn.id} at ${new Date(turn.startedAt).toLocaleTimeString()}${woke}${tools}${ended}`;
}

/** A model call: who answered, what it said and asked for, and the prompt it was sent (folded). */
function modelCallView(call, index) {
  return el('div', { class: 'model-call', 'data-model-call': index },
    el('p', {}, call.error === null ? `Model ${call.model} answered ${call.task} in ${call.durationMs} ms` : `Every model of ${call.task} failed: ${call.error}`),
    call.response ? el('p', { class: 'model-response' }, 'Answer: ', call.response) : '',
    call.toolCalls.length === 0 ? '' : el('p', { class: 'help' }, 'Asked for: ', call.toolCalls.map((asked) => `${asked.name} ${JSON.stringify(asked.args)}`).join(', ')),
    el('details', { class: 'prompt' },
      el('summary', {}, call.prompt === null ? 'Prompt no longer kept (only the newest prompts are)' : `Prompt sent to the model (${call.prompt.length} messages, ${call.promptChars} characters)`),
      (call.prompt ?? []).map((line) => el('div', { class: 'prompt-line', 'data-role': line.role }, el('strong', {}, line.role), el('pre', {}, line.text)))));
}

/** A small SVG bar chart of [label, value] pairs. */
function barChart(id, points) {
  const svgNs = 'http://www.w3.org/2000/svg';
  const width = 640;
  const height = 160;
  const max = Math.max(1, ...points.map(([, value]) => value));
  const step = width / Math.max(points.length, 1);
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('id', id);
  svg.setAttribute('viewBox', `0 0 ${width} ${height + 20}`);
  svg.setAttribute('role', 'img');
  points.forEach(([label, value], index) => {
    const bar = document.createElementNS(svgNs, 'rect');
    const barHeight = (value / max) * height;
    bar.setAttribute('x', String(index * step + 4));
    bar.setAttribute('y', String(height - barHeight));
    bar.setAttribute('width', String(Math.max(step - 8, 2)));
    bar.setAttribute('height', String(barHeight));
    bar.setAttribute('fill', '#4f6bed');
    const title = document.createElementNS(svgNs, 'title');
    title.textContent = `${label}: ${value}`;
    bar.append(title);
    const text = document.createElementNS(svgNs, 'text');
    text.setAttribute('x', String(index * step + 4));
    text.setAttribute('y', String(height + 15));
    text.setAttribute('font-size', '11');
    text.textContent = label.slice(5);
    svg.append(bar, text);
  });
  return svg;
}

async function route() {
  if (token() === '') return showLogin();
  login.hidden = true;
  nav.hidden = false;
  const [name, argument] = (location.hash.slice(1) || 'overview').split('/');
  // The market is a view of the Plugins page.
  const section = name === 'market' ? 'plugins' : name;
  for (const link of nav.querySelectorAll('a')) link.classList.toggle('active', link.dataset.page === section);
  const draw = pages[name] ?? pages.overview;
  try {
    page.replaceChildren(await draw(argument === undefined ? undefined : decodeURIComponent(argument)));
  } catch (error) {
    if (String(error.message) !== 'unauthorised') page.replaceChildren(el('p', { class: 'error' }, `Could not load this page: ${error.message}`));
  }
}

window.addEventListener('hashchange', route);
route();
