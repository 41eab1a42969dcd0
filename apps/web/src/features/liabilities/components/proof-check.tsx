import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { LiabilitiesProof } from '@meridian/contracts/liabilities';
import { Alert, Button, Flex, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useLiabilitiesProof } from '../api/get-liabilities-proof.ts';
import { checkProof, type ProofVerdict, saveProofFile } from '../lib/proof-file.ts';

/**
 * The signed-in user's part of the page: download their inclusion proof of the latest snapshot
 * (checked at once in the browser), or open a proof file they kept and check it: pass with their
 * balances, or fail with the reason.
 */
export function ProofCheck({ publishedRoots }: { publishedRoots: ReadonlyMap<string, string> }) {
  const { t } = useTranslation('liabilities');
  const proofCall = useLiabilitiesProof();
  const [verdict, setVerdict] = useState<ProofVerdict | null>(null);

  const download = async () => {
    const proof: LiabilitiesProof = await proofCall.mutateAsync(undefined);
    saveProofFile(proof);
    setVerdict(checkProof(proof, publishedRoots));
  };
  const open = async (file: File) => setVerdict(checkProof(await file.text(), publishedRoots));

  return (
    <Flex vertical gap={16} data-testid="liabilities-proof">
      <Typography.Paragraph type="secondary">{t('proof.intro')}</Typography.Paragraph>
      <Flex wrap gap={12}>
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
