import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { LiabilitiesProof } from '@meridian/contracts/liabilities';
import { Alert, Button, Flex, Select, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useLiabilitiesProof } from '../api/get-liabilities-proof.ts';
import { checkProof, type ProofVerdict, saveProofFile } from '../lib/proof-file.ts';

/**
 * The signed-in user's part of the page: download their inclusion proof of a published snapshot
 * (the latest by default; `publishedRoots` lists them, newest first) — checked at once in the
 * browser — or open a proof file they kept and check it: pass with their balances, or fail with the reason.
 */
export function ProofCheck({ publishedRoots }: { publishedRoots: ReadonlyMap<string, string> }) {
  const { t } = useTranslation('liabilities');
  const proofCall = useLiabilitiesProof();
  const [verdict, setVerdict] = useState<ProofVerdict | null>(null);
  const dates = [...publishedRoots.keys()];
  const [date, setDate] = useState<string | undefined>(undefined);
  const chosenDate = date ?? dates[0];

  const download = async () => {
    setVerdict(null);
    const proof: LiabilitiesProof = await proofCall.mutateAsync(chosenDate);
    saveProofFile(proof);
    setVerdict(checkProof(proof, publishedRoots));
  };
  const open = async (file: File) => setVerdict(checkProof(await file.text(), publishedRoots));

  return (
    <Flex vertical gap={16} data-testid="liabilities-proof">
      <Typography.Paragraph type="secondary">{t('proof.intro')}</Typography.Paragraph>
      <Flex wrap gap={12}>
        <Select
          className="liabilities-date"
          aria-label={t('columns.date')}
          value={chosenDate}
          onChange={setDate}
          options={dates.map((value) => ({ value, label: value }))}
          data-testid="liabilities-date"
        />
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          loading={proofCall.isPending}
          onClick={() => void download().catch(() => setVerdict(null))}
          data-testid="liabilities-download"
        >
          {t('proof.download')}
        </Button>
        <Upload
          accept="application/json,.json"
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            void open(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} data-testid="liabilities-open">
            {t('proof.open')}
          </Button>
        </Upload>
      </Flex>
      {proofCall.error instanceof ApiError && (
        <Alert type="warning" showIcon title={proofCall.error.message} data-testid="liabilities-proof-refused" />
      )}
      {verdict && <Verdict verdict={verdict} />}
    </Flex>
  );
}

function Verdict({ verdict }: { verdict: ProofVerdict }) {
  const { t } = useTranslation('liabilities');
  if (!verdict.isValid)
    return (
      <Alert
        type="error"
        showIcon
        title={t('proof.fail')}
        description={t(`proof.reasons.${verdict.reason}`)}
        data-testid="liabilities-verdict-fail"
      />
    );
  return (
    <Alert
      type="success"
      showIcon
      title={t('proof.pass', { date: verdict.snapshotDate })}
      data-testid="liabilities-verdict-pass"
      description={
        <Flex vertical gap={8}>
          <Typography.Text className="liabilities-hash">{t('proof.root', { hash: verdict.rootHash })}</Typography.Text>
          <Table
            size="small"
            pagination={false}
            rowKey="asset"
            dataSource={verdict.balances}
            columns={[
              { title: t('columns.asset'), dataIndex: 'asset' },
              { title: t('columns.yourBalance'), dataIndex: 'amount', align: 'right' },
            ]}
          />
        </Flex>
      }
    />
  );
}
