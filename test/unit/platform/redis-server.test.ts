import { expect } from 'chai';
import { answersPing, startRedisServer } from '../../support/redis-server.js';

describe('redis-server test harness', () => {
  it('fails with the install hint when the binary is missing, rather than skipping', async () => {
    const failure = await startRedisServer({ binary: 'redis-server-that-is-not-installed' }).then(
      () => new Error('expected the start to fail'),
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.include('apt-get install -y redis-server');
  });

  it('serves on a loopback URL, stops, and restarts on the same port', async () => {
    const server = await startRedisServer();
    try {
      expect(server.url).to.equal(`redis://127.0.0.1:${server.port}`);
      expect(await answersPing(server.port)).to.equal(true);
      await server.stop();
      expect(await answersPing(server.port)).to.equal(false);
      await server.restart();
      expect(await answersPing(server.port)).to.equal(true);
    } finally {
      await server.stop();
    }
  });
});
