/** Shapes of the Honeycomb REST API (v1) as the real service returns them. */
export interface HcAuth {
  id: string;
  type: string;
  api_key_access?: Record<string, boolean>;
  environment: { name: string; slug: string };
  team: { name: string; slug: string };
}

export interface HcDataset {
  name: string;
  slug: string;
  description: string;
  settings?: { delete_protected?: boolean };
  expand_json_depth?: number;
  created_at: string;
  last_written_at: string | null;
  regular_columns_count?: number | null;
}

export interface HcColumn {
  id: string;
  key_name: string;
  type: 'string' | 'float' | 'integer' | 'boolean' | 'histogram';
  description: string;
  hidden: boolean;
  last_written?: string;
  created_at: string;
  updated_at: string;
}

export interface HcDerivedColumn {
  id: string;
  alias: string;
  expression: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** The pseudo-dataset of environment-wide derived columns, in the API and in results. */
export const ALL_DATASETS = '__all__';
export const ENVIRONMENT_DATASET = '__environment__';
