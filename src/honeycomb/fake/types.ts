/** The fake Honeycomb's data model: what an environment, its datasets and their columns hold. */
export interface FakeColumn {
  key_name: string;
  type: 'string' | 'float' | 'integer' | 'boolean' | 'histogram';
  description: string;
  hidden?: boolean;
  lastWrittenAgoSec: number | null;
}

export interface FakeDerived {
  alias: string;
  expression: string;
  description: string;
}

export interface FakeDataset {
  slug: string;
  name: string;
  description: string;
  lastWrittenAgoSec: number | null;
  columns: FakeColumn[];
  derived: FakeDerived[];
}

export interface FakeEnvironment {
  environment: { name: string; slug: string };
  team: { name: string; slug: string };
  datasets: FakeDataset[];
  environmentDerived: FakeDerived[];
}
