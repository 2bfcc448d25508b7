/** A small governed project, built through the SDK itself, for the SDK specs. */
import type { Plumbline } from '../../src/sdk/index.js';
import { firstDrawBody, projectBody } from '../support/api-fixtures.js';

export { D } from '../support/api-fixtures.js';

export interface SdkFixture {
  owner: string;
  gc: string;
  projectId: string;
  drawId: string;
}

export async function governedProject(client: Plumbline): Promise<SdkFixture> {
  const owner = (await client.createEntity({ legal_name: 'Harbor View Owner LLC', roles: ['owner'] })).id;
  const gc = (
    await client.createEntity({
      legal_name: 'Keystone Builders, Inc.',
      ein: '12-3456789',
      roles: ['general_contractor'],
    })
  ).id;
  // The same bodies the API specs use, typed as the SDK's request shapes (the SDK checks them).
  const project = await client.registerProject(
    projectBody({ borrower: owner, general_contractor: gc }) as unknown as Parameters<
      Plumbline['registerProject']
    >[0],
  );
  const draw = await client.submitDraw(
    project.id,
    firstDrawBody() as unknown as Parameters<Plumbline['submitDraw']>[1],
  );
  return { owner, gc, projectId: project.id, drawId: draw.id };
}
