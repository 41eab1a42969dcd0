import { apiKeyEndpoints, type CreatedApiKey } from '@meridian/contracts/api-keys';
import type { ApiKeyScope } from '@meridian/contracts/endpoint';
import type { Envelope } from '@meridian/contracts/envelope';
import { useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { useState } from 'react';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { apiKeysKey } from '../api/get-api-keys.ts';
import { apiKeyFailure, parseIpList } from '../lib/api-key-form.ts';

/** The new API key form's values. */
export interface CreateApiKeyValues {
  label: string;
  scopes: ApiKeyScope[];
  /** Addresses or CIDR ranges, one per line (or separated by commas or spaces). */
  ipText?: string;
}

/**
 * Creating an API key through the security check (`apiKeyEndpoints.create`): `create(values)` sends
 * the label, scopes and parsed allowlist; on success the form is reset, the list refreshed and the
 * new key kept in `created` (its secret is shown once) until `dismiss()`; a refusal is marked on
 * the form's fields (`apiKeyFailure`) and the rest shown as `error`.
 */
export function useCreateApiKey(form: FormInstance<CreateApiKeyValues>) {
  const client = useQueryClient();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);

  const showFailure = (response: Envelope<unknown>) => {
    const { fieldErrors, alert } = apiKeyFailure(response);
    if (fieldErrors.length > 0) form.setFields(fieldErrors);
    setError(alert);
  };

  const createKey = useSecuredAction({
    endpoint: apiKeyEndpoints.create,
    quietSuccess: true,
    onSuccess: (content) => {
      setCreated(content);
      form.resetFields();
      void client.invalidateQueries({ queryKey: apiKeysKey });
    },
    onRefusal: ({ response }) => showFailure(response),
  });

  const create = (values: CreateApiKeyValues) => {
    setError(null);
    createKey.run({ body: { label: values.label, scopes: values.scopes, ipAllowlist: parseIpList(values.ipText) } });
  };

  return { created, error, create, dismiss: () => setCreated(null) };
}
