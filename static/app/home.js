// The front door's status panel: GET /api/status (public) rendered into the definition list.
const $ = (id) => document.getElementById(id);

function short(text, n = 16) {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

async function load() {
  const note = $('status-note');
  try {
    const response = await fetch('/api/status', { cache: 'no-store', credentials: 'omit' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const s = await response.json();
    $('status-head').textContent = `seq ${s.head.seq.toLocaleString('en-US')}`;
    const verified = $('status-verified');
    verified.textContent = `seq ${s.chain.verified_through.toLocaleString('en-US')}${s.chain.ok ? '' : ' — integrity failure'}`;
    verified.classList.toggle('bad', !s.chain.ok);
    const cp = $('status-checkpoint');
    if (s.checkpoint) {
      cp.textContent = `${s.checkpoint.origin}, size ${s.checkpoint.size.toLocaleString('en-US')}, root ${short(s.checkpoint.root)}, key ${s.checkpoint.key_id}`;
      cp.title = s.checkpoint.root;
    } else cp.textContent = 'none yet (the ledger is empty)';
    $('status-version').textContent = s.version;
    note.textContent = `As of ${new Date(s.as_of).toUTCString()}.`;
  } catch (error) {
    note.textContent = `The status could not be read: ${error.message}`;
    note.classList.add('error');
  }
}

void load();
